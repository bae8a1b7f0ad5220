@testable import HTTPServer
import Testing
import TestSupport

private let limit = 1000

private func limitedServer() throws -> TestServer {
    try TestServer(configuration: HTTPServerConfiguration(workers: 2, maxBodyBytes: limit))
}

@Test func bodyOfExactlyMaxBodyBytesIsAccepted() throws {
    let test = try limitedServer()
    let body = [UInt8](repeating: UInt8(ascii: "a"), count: limit)
    let plain = try RawHTTPClient.send(port: test.port, method: "PUT", target: "/", body: body)
    #expect(plain.status == 200)
    let chunked = try RawHTTPClient.send(port: test.port, method: "PUT", target: "/", body: body, chunkSize: 99)
    #expect(chunked.status == 200)
    #expect(test.handled.map(\.body.count) == [limit, limit])
}

@Test func oneByteOverMaxBodyBytesIsRejectedWith413() throws {
    let test = try limitedServer()
    let body = [UInt8](repeating: UInt8(ascii: "a"), count: limit + 1)
    let plain = try RawHTTPClient.send(port: test.port, method: "PUT", target: "/", body: body)
    #expect(plain.status == 413)
    #expect(plain.bodyText == "too large, limit \(limit)")
    let chunked = try RawHTTPClient.send(port: test.port, method: "PUT", target: "/", body: body, chunkSize: 99)
    #expect(chunked.status == 413)
    #expect(test.handled.isEmpty)
}

@Test func declaredOversizedBodyIsRefusedBeforeAnyBodyIsSent() throws {
    let test = try limitedServer()
    let connection = try RawHTTPConnection(port: test.port, timeoutSeconds: 3)
    // Only the head: the answer must come without the server waiting for 10 GB.
    try connection.write(Array("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n".utf8))
    let response = try connection.readResponse()
    #expect(response.status == 413)
    #expect(test.handled.isEmpty)
}

@Test func hugeChunkedBodyIsDiscardedAndRejected() throws {
    let test = try limitedServer()
    let body = [UInt8](repeating: UInt8(ascii: "b"), count: 4 * 1024 * 1024)
    let response = try RawHTTPClient.send(port: test.port, method: "POST", target: "/", body: body, chunkSize: 64 * 1024,
                                          timeoutSeconds: 20)
    #expect(response.status == 413)
    #expect(test.handled.isEmpty)
    // The server stays usable afterwards.
    #expect(try RawHTTPClient.send(port: test.port, target: "/after").status == 200)
}

@Test func requestStateNeverHoldsMoreThanTheLimit() {
    let state = RequestState(
        head: .success(HTTPRequest(method: "POST", path: "/")), declaredContentLength: nil, maxBodyBytes: 10)
    let chunk = [UInt8](repeating: 7, count: 4)
    for _ in 0..<2 { chunk.withUnsafeBytes { state.appendBody($0) } }
    #expect(state.body.count == 8)
    chunk.withUnsafeBytes { state.appendBody($0) }  // would be 12
    #expect(state.body.isEmpty)
    #expect(state.bodyTooLarge)
    for _ in 0..<100 { chunk.withUnsafeBytes { state.appendBody($0) } }
    #expect(state.body.isEmpty)
    guard case .reject(.bodyTooLarge(limit: 10)) = state.finish() else {
        Issue.record("expected a bodyTooLarge rejection")
        return
    }
}

@Test func zeroLimitAcceptsOnlyEmptyBodies() throws {
    let test = try TestServer(configuration: HTTPServerConfiguration(workers: 1, maxBodyBytes: 0))
    #expect(try RawHTTPClient.send(port: test.port, method: "POST", target: "/", body: []).status == 200)
    #expect(try RawHTTPClient.send(port: test.port, method: "POST", target: "/", body: [1]).status == 413)
}
