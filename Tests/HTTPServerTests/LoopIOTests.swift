import EventLoop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// A request whose task awaits I/O that completes on another thread (a database read in the
/// service) holds no handler thread: the connection stays suspended until the continuation is
/// resumed, and the task goes on on the connection's event loop.
@Suite struct LoopIOTests {
    /// Answers `/block` on a handler thread held by `gate`, and anything else after a read
    /// that a background thread completes after `delay`, then goes on as `then` says.
    private static func server(
        workers: Int = 1, gate: Gate = Gate(), delay: Duration = .milliseconds(20),
        then: @escaping @Sendable (HTTPRequest) async -> HTTPResponse = { _ in HTTPResponse(status: 200) }
    ) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: workers, eventLoops: 1),
            respond: { request in
                if request.path == "/block" { return await gate.hold(request) }
                await completed(after: delay)
                return await then(request)
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        return server
    }

    /// Stands for a read the loop drives: resumed from a background thread after `delay`.
    private static func completed(after delay: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: delay.seconds)
                continuation.resume()
            }
        }
    }

    /// A responder that never awaits answers on the connection's event loop, inside
    /// libmicrohttpd's callback (`MHD_run` is on the stack: the task was not queued for a later
    /// turn of the loop): no handler thread is involved (the only one is held) and the answer
    /// goes out at once, on a connection kept alive.
    @Test func aResponderThatNeverAwaitsAnswersOnTheLoopWithoutAHandlerThread() throws {
        let gate = Gate()
        let onLoop = Atomic<Int>(0)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 1),
            respond: { request in
                if request.path == "/block" { return await gate.hold(request) }
                let inside = EventLoop.current != nil && Thread.callStackSymbols.contains { $0.contains("MHD_run") }
                if inside { onLoop.add(1, ordering: .relaxed) }
                return HTTPResponse(status: 200, body: Array("inside the loop's callback: \(inside)".utf8))
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        defer { server.stop(graceSeconds: 1) }
        defer { gate.open(1) }
        let blocked = BackgroundRequest(port: server.port, target: "/block")
        #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
        let connection = try RawHTTPConnection(port: server.port)
        for _ in 0..<5 {
            try connection.write(RawHTTPRequest(target: "/memory").encoded(closeConnection: false))
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.bodyText == "inside the loop's callback: true")
            #expect(response.header("connection")?.lowercased() != "close")
        }
        #expect(onLoop.load(ordering: .relaxed) == 5)
        #expect(gate.entered.load(ordering: .relaxed) == 1, "the handler thread was held all along")
        gate.open(1)
        #expect(blocked.status() == 200)
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

    @Test func aTaskMayAwaitMoreIOOrHandOffWorkAfterARead() throws {
        let server = try Self.server(workers: 1) { request in
            switch request.path {
            case "/later/chain":
                await Self.completed(after: .zero)
                return HTTPResponse(status: 201)
            case "/later/work":
                return await request.services!.work { HTTPResponse(status: 202) } ?? HTTPResponse(status: 503)
            default:
                return HTTPResponse(status: 200)
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

    /// The task starts on the connection's event loop and, resumed from another thread (a
    /// read's completion, a handler thread's work), goes on on that same loop, which owns the
    /// connection and its sessions.
    @Test func aTaskResumedFromAnotherThreadGoesOnOnItsConnectionsEventLoop() throws {
        let sameLoop = Atomic<Int>(0)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 2),
            respond: { request in
                let started = EventLoop.current
                var onItsLoop = started != nil
                await Self.completed(after: .milliseconds(5))
                onItsLoop = onItsLoop && EventLoop.current === started
                _ = await request.services!.work {}
                onItsLoop = onItsLoop && EventLoop.current === started
                if onItsLoop { sameLoop.add(1, ordering: .relaxed) }
                return HTTPResponse(status: 200, body: Array("on its loop: \(onItsLoop)".utf8))
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        defer { server.stop(graceSeconds: 1) }
        let bodies = onThreads(10) { index in
            try RawHTTPClient.send(port: server.port, target: "/\(index)", timeoutSeconds: 10).bodyText
        }.map { (try? $0.get()) ?? "failed" }
        #expect(bodies == Array(repeating: "on its loop: true", count: 10))
        #expect(sameLoop.load(ordering: .relaxed) == 10)
    }

    /// What a loop attachment holds when the server stops is answered (a retry hint), so no
    /// connection stays suspended and `stop` returns.
    @Test func stopAnswersReadsHeldByTheLoop() throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 1),
            respond: { _ in
                await withCheckedContinuation { (continuation: CheckedContinuation<HTTPResponse, Never>) in
                    let held = EventLoop.current!.attachment(ObjectIdentifier(HeldReads.self)) { HeldReads() }
                    held.continuations.append(continuation)
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

/// Reads nobody completes until the loop closes its attachments.
private final class HeldReads: LoopAttachment {
    var continuations: [CheckedContinuation<HTTPResponse, Never>] = []

    func close() {
        for continuation in continuations { continuation.resume(returning: HTTPResponse(status: 503)) }
        continuations = []
    }
}
