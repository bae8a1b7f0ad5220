import EventLoop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// I/O a request starts on its event loop (`Decision.later`, a database read in the service)
/// holds no handler thread: the connection stays suspended until the completion, on any
/// thread, says what follows.
@Suite struct LoopIOTests {
    /// Answers `/block` on a handler thread held by `gate`, and `/later/…` through a read
    /// that a background thread completes after `delay`, then goes on as `then` says.
    private static func server(
        workers: Int = 1, gate: Gate = Gate(), delay: Duration = .milliseconds(20),
        then: @escaping @Sendable (HTTPRequest) -> Decision = { _ in .respond(HTTPResponse(status: 200)) }
    ) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: workers, eventLoops: 1),
            decide: { request in
                if request.path == "/block" {
                    return .work {
                        gate.pass()
                        return .respond(HTTPResponse(status: 200))
                    }
                }
                return .later { completion in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: delay.seconds)
                        completion(then(request))
                    }
                }
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        return server
    }

    @Test func readsInFlightHoldNoHandlerThread() throws {
        let gate = Gate()
        let server = try Self.server(workers: 1, gate: gate)
        defer { server.stop(graceSeconds: 1) }
        let blocked = BackgroundRequest(port: server.port, target: "/block")
        #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
        // The only handler thread is stuck; 32 requests waiting on I/O at once still finish.
        let statuses = onThreads(32) { index in
            try RawHTTPClient.send(port: server.port, target: "/later/\(index)", timeoutSeconds: 10).status
        }.map { (try? $0.get()) ?? -1 }
        #expect(statuses == Array(repeating: 200, count: 32))
        gate.open(1)
        #expect(blocked.status() == 200)
    }

    @Test func aCompletionMayStartMoreIOOrHandOffWork() throws {
        let server = try Self.server(workers: 1) { request in
            switch request.path {
            case "/later/chain":
                return .later { completion in completion(.respond(HTTPResponse(status: 201))) }
            case "/later/work":
                return .work { .respond(HTTPResponse(status: 202)) }
            default:
                return .respond(HTTPResponse(status: 200))
            }
        }
        defer { server.stop(graceSeconds: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        for (target, status) in [("/later/chain", 201), ("/later/work", 202), ("/later/plain", 200), ("/later/chain", 201)] {
            try connection.write(RawHTTPRequest(target: target).encoded(closeConnection: false))
            let response = try connection.readResponse()
            #expect(response.status == status, "\(target)")
            #expect(response.header("connection")?.lowercased() != "close", "keep-alive survives \(target)")
        }
    }

    @Test func theReadStartsOnTheRequestsEventLoop() throws {
        let onLoop = Atomic<Int>(0)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 2),
            decide: { _ in
                .later { completion in
                    if EventLoop.current != nil { onLoop.add(1, ordering: .relaxed) }
                    // Completed at once, before `start` returns.
                    completion(.respond(HTTPResponse(status: 200)))
                }
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        defer { server.stop(graceSeconds: 1) }
        for index in 0..<10 {
            #expect(try RawHTTPClient.send(port: server.port, target: "/\(index)").status == 200)
        }
        #expect(onLoop.load(ordering: .relaxed) == 10)
    }

    /// What a loop attachment holds when the server stops is answered (a retry hint), so no
    /// connection stays suspended and `stop` returns.
    @Test func stopAnswersReadsHeldByTheLoop() throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 1),
            decide: { _ in
                .later { completion in
                    let held = EventLoop.current!.attachment(ObjectIdentifier(HeldReads.self)) { HeldReads() }
                    held.completions.append(completion)
                }
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: { _ in HTTPResponse(status: 503, body: Array("shutting down".utf8)) })
        try server.start()
        let waiting = BackgroundRequest(port: server.port, target: "/never-completes")
        #expect(waitUntil { server.inFlightRequests == 1 })
        let started = ContinuousClock.now
        server.stop(graceSeconds: 0.2)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(waiting.status() == 503)
    }
}

/// Completions nobody calls until the loop closes its attachments.
private final class HeldReads: LoopAttachment {
    var completions: [@Sendable (Decision) -> Void] = []

    func close() {
        for completion in completions { completion(.respond(HTTPResponse(status: 503))) }
        completions = []
    }
}
