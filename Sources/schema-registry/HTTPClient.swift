import Foundation
import CCurl

/// A blocking HTTP client for the client commands, on libcurl loaded at run time (see
/// CCurl.h), so http and https both work and the server binary does not depend on libcurl.
enum HTTPClient {
    struct Response {
        let status: Int
        let body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maxResponseBytes = 16 << 20

    static func send(method: String, url: String, headers: [String], body: [UInt8], timeoutSeconds: Int) throws(Failure)
        -> Response
    {
        var response = ccurl_response()
        defer { ccurl_response_free(&response) }
        let result = withCStrings(headers) { pointers in
            body.withUnsafeBytes { bytes in
                ccurl_request(
                    method, url, pointers, Int32(pointers.count), bytes.baseAddress, bytes.count, timeoutSeconds,
                    maxResponseBytes, &response)
            }
        }
        guard result == 0 else {
            let message = withUnsafeBytes(of: response.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw Failure(description: message)
        }
        let bytes = response.body.map { [UInt8](UnsafeBufferPointer(start: $0, count: response.length)) } ?? []
        return Response(status: response.status, body: bytes)
    }

    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
