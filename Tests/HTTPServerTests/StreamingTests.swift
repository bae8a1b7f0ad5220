import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Pieces produced one at a time on handler threads, each only once the client has taken the
/// previous one.
final class CountingStream: HTTPBodyStream {
    let pieces: Int
    let pieceBytes: Int
    let failAt: Int?
    let produced = Atomic<Int>(0)

    init(pieces: Int, pieceBytes: Int, failAt: Int? = nil) {
        self.pieces = pieces
        self.pieceBytes = pieceBytes
        self.failAt = failAt
    }

    struct Broken: Error {}

    func next() throws -> [UInt8]? {
        let index = produced.add(1, ordering: .relaxed).newValue
        if index == failAt { throw Broken() }
        guard index <= pieces else { return nil }
        if index % 3 == 0 { return [] }  // empty pieces are skipped, not an end
        return [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: pieceBytes)
    }

    static func expected(pieces: Int, pieceBytes: Int) -> [UInt8] {
        Array("head|".utf8) + (1...pieces).filter { $0 % 3 != 0 }.flatMap {
            [UInt8](repeating: UInt8(ascii: "a") + UInt8($0 % 26), count: pieceBytes)
        }
    }
}

@Suite struct StreamingTests {
    @Test func aStreamedBodyArrivesWholeInOrderWithChunkedEncoding() throws {
        let stream = CountingStream(pieces: 40, pieceBytes: 100_000)
        let test = try TestServer(handler: { _ in HTTPResponse(status: 200, body: Array("head|".utf8), rest: stream) })
        let response = try RawHTTPClient.send(port: test.port, target: "/big", timeoutSeconds: 30)
        #expect(response.status == 200)
        #expect(response.header("transfer-encoding") == "chunked")
        #expect(response.body == CountingStream.expected(pieces: 40, pieceBytes: 100_000))
    }

    /// A client that stops reading holds the server at the piece it is on: the rest is not
    /// produced ahead of it.
    @Test func aReaderThatDoesNotReadStopsProduction() throws {
        let stream = CountingStream(pieces: 1000, pieceBytes: 100_000)
        let test = try TestServer(handler: { request in
            request.path == "/big" ? HTTPResponse(status: 200, body: Array("head|".utf8), rest: stream) : HTTPResponse(status: 200)
        })
        let connection = try RawHTTPConnection(port: test.port, timeoutSeconds: 5)
        try connection.write(RawHTTPRequest(target: "/big").encoded(closeConnection: true))
        Thread.sleep(forTimeInterval: 1)
        let produced = stream.produced.load(ordering: .relaxed)
        #expect(produced < 100, "\(produced) pieces of 100 KB produced for a client that read nothing")
        connection.close()
        #expect(try RawHTTPClient.send(port: test.port, target: "/next").status == 200)
    }

    @Test func aFailingStreamCutsTheResponseShortAndTheServerStaysUsable() throws {
        let stream = CountingStream(pieces: 10, pieceBytes: 1000, failAt: 5)
        let test = try TestServer(handler: { request in
            request.path == "/broken" ? HTTPResponse(status: 200, body: Array("head|".utf8), rest: stream) : HTTPResponse(status: 200)
        })
        let connection = try RawHTTPConnection(port: test.port, timeoutSeconds: 5)
        try connection.write(RawHTTPRequest(target: "/broken").encoded(closeConnection: false))
        #expect(throws: RawHTTPError.self) { try connection.readResponse() }
        #expect(try RawHTTPClient.send(port: test.port, target: "/fine").status == 200)
    }
}
