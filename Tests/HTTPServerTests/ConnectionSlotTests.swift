import Foundation
import HTTPServer
import Testing
import TestSupport

/// Connections are a shared resource: one client address must not be able to take them all,
/// and a socket that never sends a request must give its slot back soon.
@Suite struct ConnectionSlotTests {
    @Test func oneAddressAtItsLimitDoesNotKeepAnotherAddressFromBeingServed() throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(
            workers: 1, eventLoops: 1, connectionTimeoutSeconds: 30, connectionLimit: 40, connectionLimitPerAddress: 8))
        let idle = try (0..<60).map { _ in try RawHTTPConnection(port: test.port, sourceAddress: "127.0.0.1") }
        defer { idle.forEach { $0.close() } }
        Thread.sleep(forTimeInterval: 0.2)
        let other = try RawHTTPConnection(port: test.port, timeoutSeconds: 2, sourceAddress: "127.0.0.2")
        try other.write(RawHTTPRequest(target: "/served").encoded(closeConnection: true))
        #expect(try other.readResponse().status == 200)
        // Past its limit the flooding address is closed at once, not left waiting.
        let refused = try RawHTTPConnection(port: test.port, timeoutSeconds: 2, sourceAddress: "127.0.0.1")
        try? refused.write(RawHTTPRequest(target: "/refused").encoded(closeConnection: true))
        #expect(try refused.readToEOF().isEmpty)
        #expect(test.handled.map(\.path) == ["/served"])
    }

    @Test func aConnectionThatSendsNoRequestHeadIsClosedAfterTheHeadDeadline() throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(
            workers: 1, connectionTimeoutSeconds: 30, requestHeadTimeoutSeconds: 1))
        let silent = try RawHTTPConnection(port: test.port, timeoutSeconds: 10)
        let started = Date()
        #expect(try silent.readToEOF().isEmpty)
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.9 && waited < 5, "closed after \(waited) s")
    }

    /// libmicrohttpd stops listening at its connection limit and listens again only on a later
    /// run of the daemon: once connections close, the ones queued meanwhile must be accepted at
    /// once, not at the next unrelated event.
    @Test func aDaemonAtItsConnectionLimitAcceptsAgainOnceConnectionsClose() throws {
        let test = try TestServer(configuration: HTTPServerConfiguration(
            workers: 1, eventLoops: 1, connectionTimeoutSeconds: 60, connectionLimit: 4, requestHeadTimeoutSeconds: 60))
        let idle = try (0..<4).map { _ in try RawHTTPConnection(port: test.port) }
        Thread.sleep(forTimeInterval: 0.2)
        let queued = try RawHTTPConnection(port: test.port, timeoutSeconds: 10)
        try queued.write(RawHTTPRequest(target: "/queued").encoded(closeConnection: true))
        Thread.sleep(forTimeInterval: 0.2)
        idle.forEach { $0.close() }
        // Without a run of its own the daemon would not accept it before the head deadline.
        #expect(try queued.readResponse().status == 200)
        #expect(try RawHTTPClient.send(port: test.port, target: "/after").status == 200)
    }
}
