import Foundation
import HTTPServer
import Testing
import TestSupport

/// Request heads whose body framing is ambiguous are refused with one 400 and a closed
/// connection, without waiting for a body, and never reach the handler: a proxy reading the
/// same bytes differently could otherwise smuggle a second request past it.
@Suite struct FramingTests {
    struct Shape: CustomStringConvertible, Sendable {
        let description: String
        let bytes: String
    }

    static let smuggling: [Shape] = [
        Shape(description: "two different Content-Length headers",
              bytes: "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 40\r\n\r\nabc"),
        Shape(description: "two equal Content-Length headers",
              bytes: "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc"),
        Shape(description: "Content-Length with chunked",
              bytes: "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
        Shape(description: "gzip, chunked",
              bytes: "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
        Shape(description: "identity",
              bytes: "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n\r\nabc"),
        Shape(description: "two Transfer-Encoding headers",
              bytes: "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        Shape(description: "HTTP/1.1 without Host", bytes: "GET /p HTTP/1.1\r\n\r\n"),
        Shape(description: "HTTP/1.1 with two Host headers", bytes: "GET /p HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
    ]

    @Test(arguments: smuggling)
    func ambiguousFramingIsOne400AndAClosedConnection(_ shape: Shape) throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(workers: 1, connectionTimeoutSeconds: 20))
        let started = Date()
        let raw = try RawHTTPClient.sendRaw(port: test.port, bytes: Array(shape.bytes.utf8), timeoutSeconds: 10)
        #expect(Date().timeIntervalSince(started) < 5, "the server waited for a body it cannot delimit")
        let text = String(decoding: raw, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 "), "\(text.prefix(80))")
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "exactly one status line: \(text.prefix(200))")
        #expect(test.handled.isEmpty)
    }

    @Test func aSingleLengthOrChunkedBodyStillWorks() throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(workers: 1))
        #expect(try RawHTTPClient.send(port: test.port, method: "POST", target: "/a", body: Array("abc".utf8)).status == 200)
        let chunked = try RawHTTPClient.send(port: test.port, method: "POST", target: "/b", body: Array("abcdef".utf8), chunkSize: 2)
        #expect(chunked.status == 200)
        let raw = try RawHTTPClient.sendRaw(port: test.port, bytes: Array("GET /c HTTP/1.0\r\n\r\n".utf8))
        #expect(try RawHTTPClient.parse(raw).status == 200, "HTTP/1.0 needs no Host")
        #expect(test.handled.map(\.path).sorted() == ["/a", "/b", "/c"])
    }

    @Test func anOverlongMethodIsRefusedBeforeTheHandler() throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(workers: 1))
        let method = String(repeating: "M", count: 16 * 1024)
        let raw = try RawHTTPClient.sendRaw(port: test.port, bytes: Array("\(method) /p HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let response = try RawHTTPClient.parse(raw)
        #expect(response.status == 400)
        #expect(response.bodyText == "invalid: method: 16384 bytes, longer than 32")
        #expect(test.handled.isEmpty)
    }

    @Test func tooManyQueryParametersAreA400NotASilentClose() throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(workers: 1))
        for count in [101, 600, 3000] {
            let query = (0..<count).map { "a\($0)=1" }.joined(separator: "&")
            let raw = try RawHTTPClient.sendRaw(port: test.port, bytes: Array("GET /p?\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            let response = try RawHTTPClient.parse(raw)
            #expect(response.status == 400, "\(count) parameters")
            #expect(response.bodyText.contains("more than 100"), "\(count): \(response.bodyText.prefix(120))")
        }
        #expect(try RawHTTPClient.send(port: test.port, target: "/p?" + (0..<100).map { "a\($0)=1" }.joined(separator: "&")).status == 200)
    }
}
