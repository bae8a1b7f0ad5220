import EventLoop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Requests parked in the waiting room hold no handler thread and outlive the connection
/// timeout; a wake decides again on the connection's event loop.
@Suite struct ParkedRequestTests {
    /// One handler thread, a one-second connection timeout; `/wait` parks under key `k`.
    private func server(_ room: WaitingRoom) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, connectionTimeoutSeconds: 1),
            decide: { request in
                .work {
                    guard request.path == "/wait" else { return .respond(HTTPResponse(status: 200, body: Array("now".utf8))) }
                    return .wait(
                        WaitRequest(ticket: room.ticket("k"), deadline: .now + .seconds(30)) { reason in
                            .respond(HTTPResponse(status: 200, body: Array("woken: \(reason)".utf8)))
                        })
                }
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

    /// Parked straight from the loop (`/wait`), a request woken by `wake` decides again on its
    /// connection's own event loop and can start a read there: it answers while the only
    /// handler thread is held (`/block`).
    @Test func aWokenRequestGoesOnOnItsConnectionsEventLoopWithoutAHandlerThread() throws {
        let room = WaitingRoom(capacity: 10)
        let gate = Gate()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1, eventLoops: 2),
            decide: { request in
                if request.path == "/block" {
                    return .work {
                        gate.pass()
                        return .respond(HTTPResponse(status: 200))
                    }
                }
                let parkedOn = EventLoop.current
                return .wait(
                    WaitRequest(ticket: room.ticket("k"), deadline: .now + .seconds(30)) { reason in
                        let sameLoop = parkedOn != nil && EventLoop.current === parkedOn
                        return .later { completion in
                            completion(.respond(HTTPResponse(status: 200, body: Array("\(reason) on its loop: \(sameLoop)".utf8))))
                        }
                    })
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

    /// Woken to answer now, a request that would park again (directly, or after a read) gets
    /// the shutting-down rejection instead, so a stopping server never waits for it.
    @Test func aRequestWokenToAnswerNowNeverParksAgain() throws {
        let room = WaitingRoom(capacity: 10)
        @Sendable func parking(_ path: String) -> WaitRequest {
            WaitRequest(ticket: room.ticket("k"), deadline: .now + .seconds(30)) { _ in
                path == "/wait-again" ? .wait(parking(path)) : .later { completion in completion(.wait(parking(path))) }
            }
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 1),
            decide: { request in .wait(parking(request.path)) },
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
            #expect(response.status == 503 && response.bodyText == "shutting down")
        }
        #expect(ContinuousClock.now - began < .seconds(10))
    }
}
