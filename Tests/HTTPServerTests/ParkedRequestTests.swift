import EventLoop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Requests waiting in the waiting room (`RequestServices.wait`) hold no handler thread and
/// outlive the connection timeout; a wake resumes their task on the connection's event loop.
@Suite struct ParkedRequestTests {
    /// One handler thread, a one-second connection timeout; `/wait` takes its ticket on a
    /// handler thread, then waits under key `k`; anything else answers on a handler thread.
    private func server(_ room: WaitingRoom, connectionTimeoutSeconds: Int = 1) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, connectionTimeoutSeconds: connectionTimeoutSeconds),
            respond: { request in
                let services = request.services!
                guard request.path == "/wait" else {
                    return await services.work { HTTPResponse(status: 200, body: Array("now".utf8)) } ?? HTTPResponse(status: 503)
                }
                guard let ticket = await services.work({ room.ticket("k") }) else { return HTTPResponse(status: 503) }
                let reason = await services.wait(ticket, until: .now + .seconds(30))
                return HTTPResponse(status: 200, body: Array("woken: \(reason)".utf8))
            },
            waitingRoom: room,
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        return server
    }

    @Test func parkedRequestsHoldNoHandlerThreadOutliveTheConnectionTimeoutAndAnswerWhenWoken() throws {
        let room = WaitingRoom(capacity: 10)
        let server = try server(room)
        defer { server.stop(graceSeconds: 1) }
        var connections: [RawHTTPConnection] = []
        for _ in 0..<5 {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
            try connection.write(RawHTTPRequest(target: "/wait").encoded(closeConnection: true))
            connections.append(connection)
        }
        #expect(waitUntil { room.count == 5 })
        // The only handler thread is free.
        #expect(try RawHTTPClient.send(port: server.port, target: "/now").bodyText == "now")
        // Past the one-second connection timeout, the parked connections are still open.
        Thread.sleep(forTimeInterval: 2)
        room.wake("k")
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.bodyText == "woken: notified")
        }
        #expect(room.count == 0)
    }

    /// With a single handler thread, fifty long waits at once still leave it free: a plain
    /// request is answered meanwhile, and every waiter answers when woken.
    @Test func manyWaitingRequestsHoldNoHandlerThread() throws {
        let room = WaitingRoom(capacity: 50)
        let server = try server(room, connectionTimeoutSeconds: 30)
        defer { server.stop(graceSeconds: 1) }
        var connections: [RawHTTPConnection] = []
        for _ in 0..<50 {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 20)
            try connection.write(RawHTTPRequest(target: "/wait").encoded(closeConnection: true))
            connections.append(connection)
        }
        #expect(waitUntil(timeoutSeconds: 10) { room.count == 50 })
        for _ in 0..<3 {
            #expect(try RawHTTPClient.send(port: server.port, target: "/now").bodyText == "now")
        }
        #expect(room.count == 50, "the waiters were not woken to make room")
        room.wake("k")
        var woken = 0
        for connection in connections {
            if try connection.readResponse().bodyText == "woken: notified" { woken += 1 }
        }
        #expect(woken == 50)
        #expect(room.count == 0)
    }

    @Test func stoppingTheServerAnswersParkedRequestsAtOnce() throws {
        let room = WaitingRoom(capacity: 10)
        let server = try server(room)
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
        try connection.write(RawHTTPRequest(target: "/wait").encoded(closeConnection: true))
        #expect(waitUntil { room.count == 1 })
        let stopping = Thread { server.stop(graceSeconds: 5) }
        stopping.start()
        let response = try connection.readResponse()
        #expect(response.bodyText == "woken: answerNow")
    }

    /// Waiting straight from the loop (`/wait`), a request woken by `wake` goes on on its
    /// connection's own event loop and can await a read there: it answers while the only
    /// handler thread is held (`/block`).
    @Test func aWokenRequestGoesOnOnItsConnectionsEventLoopWithoutAHandlerThread() throws {
        let room = WaitingRoom(capacity: 10)
        let gate = Gate()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 2),
            respond: { request in
                if request.path == "/block" { return await gate.hold(request) }
                let parkedOn = EventLoop.current
                let reason = await request.services!.wait(room.ticket("k"), until: .now + .seconds(30))
                let sameLoop = parkedOn != nil && EventLoop.current === parkedOn
                // A read the loop completes at once.
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in continuation.resume() }
                let stillOnIt = EventLoop.current === parkedOn
                return HTTPResponse(status: 200, body: Array("\(reason) on its loop: \(sameLoop && stillOnIt)".utf8))
            },
            waitingRoom: room,
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        defer { server.stop(graceSeconds: 1) }
        // Stopping waits for the handler thread: it is let go first, whatever happened.
        defer { gate.open(1) }
        let blocked = BackgroundRequest(port: server.port, target: "/block")
        #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
        var connections: [RawHTTPConnection] = []
        for _ in 0..<6 {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
            try connection.write(RawHTTPRequest(target: "/wait").encoded(closeConnection: true))
            connections.append(connection)
        }
        #expect(waitUntil { room.count == 6 })
        room.wake("k")
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.bodyText == "notified on its loop: true", "\(response.bodyText)")
        }
        #expect(gate.entered.load(ordering: .relaxed) == 1, "the handler thread was held all along")
        gate.open(1)
        #expect(blocked.status() == 200)
    }

    /// Woken to answer now, a request that would wait again (directly, or after a read) is
    /// answered `.answerNow` at once, so a stopping server never waits for it.
    @Test func aRequestWokenToAnswerNowGetsAnswerNowAgainAtOnce() throws {
        let room = WaitingRoom(capacity: 10)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1),
            respond: { request in
                let services = request.services!
                let first = await services.wait(room.ticket("k"), until: .now + .seconds(30))
                if request.path == "/read-then-wait" {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread { continuation.resume() }
                    }
                }
                let again = await services.wait(room.ticket("k"), until: .now + .seconds(30))
                return HTTPResponse(status: 200, body: Array("\(first) then \(again)".utf8))
            },
            waitingRoom: room,
            rejection: { _ in HTTPResponse(status: 503, body: Array("shutting down".utf8)) })
        try server.start()
        var connections: [RawHTTPConnection] = []
        for target in ["/wait-again", "/read-then-wait"] {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 30)
            try connection.write(RawHTTPRequest(target: target).encoded(closeConnection: true))
            connections.append(connection)
        }
        #expect(waitUntil { room.count == 2 })
        let began = ContinuousClock.now
        // Answered long before the grace period ends.
        let stopping = Thread { server.stop(graceSeconds: 20) }
        stopping.start()
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 200 && response.bodyText == "answerNow then answerNow", "\(response.bodyText)")
        }
        #expect(ContinuousClock.now - began < .seconds(10))
        #expect(room.count == 0)
    }
}
