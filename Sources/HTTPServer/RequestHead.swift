import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Copies the borrowed request line and headers out of MHD on the first access-handler call
/// and checks that every piece is text the API layer can work with.
enum RequestHead {
    static func read(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?
    ) -> (head: Result<HTTPRequest, RequestState.InvalidRequest>, contentLength: UInt64?) {
        let rawHeaders = pairs(of: connection, kind: .HEADER_KIND)
        let contentLength = rawHeaders.last { asciiLowercased($0.name) == Array("content-length".utf8) }
            .flatMap { UInt64(String(decoding: $0.value, as: UTF8.self)) }  // MHD trims values
        do throws(RequestState.InvalidRequest) {
            let method = try text(cBytes(method), "method")
            let path = try text(cBytes(url), "path")
            var query: [(name: String, value: String)] = []
            for (index, pair) in pairs(of: connection, kind: .GET_ARGUMENT_KIND).enumerated() {
                let name = try text(pair.name, "query parameter \(index + 1) name")
                let value = try text(pair.value, "query parameter \"\(name)\" value")
                query.append((name, value))
            }
            var headers: [(name: String, value: String)] = []
            for (index, pair) in rawHeaders.enumerated() {
                let name = try text(pair.name, "header \(index + 1) name").lowercased()
                let value = try text(pair.value, "header \"\(name)\" value")
                headers.append((name, value))
            }
            return (.success(HTTPRequest(method: method, path: path, query: query, headers: headers)), contentLength)
        } catch {
            return (.failure(error), contentLength)
        }
    }

    private static func text(_ bytes: [UInt8], _ what: String) throws(RequestState.InvalidRequest) -> String {
        if bytes.contains(0) { throw .init(reason: "\(what) contains a NUL byte") }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw .init(reason: "\(what) is not valid UTF-8")
        }
        return string
    }

    private static func cBytes(_ pointer: UnsafePointer<CChar>?) -> [UInt8] {
        guard let pointer else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    private static func asciiLowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    /// Values of one kind in the order MHD received them, with explicit sizes so that an
    /// embedded NUL is seen rather than silently truncating the value.
    private static func pairs(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: [UInt8], value: [UInt8])] {
        var collected: [(name: [UInt8], value: [UInt8])] = []
        withUnsafeMutablePointer(to: &collected) { collector in
            _ = MHD_get_connection_values_n(connection, kind, { cls, _, key, keySize, value, valueSize in
                guard let cls else { return .NO }
                let name = key.map { Array(UnsafeRawBufferPointer(start: $0, count: keySize)) } ?? []
                let value = value.map { Array(UnsafeRawBufferPointer(start: $0, count: valueSize)) } ?? []
                cls.assumingMemoryBound(to: [(name: [UInt8], value: [UInt8])].self).pointee.append((name, value))
                return .YES
            }, collector)
        }
        return collected
    }
}
