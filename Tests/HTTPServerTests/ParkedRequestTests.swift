import Foundation
import HTTPServer
import Testing
import TestSupport

/// Requests a handler parks in the waiting room hold no handler thread and outlive the
/// connection timeout; a wake runs them again on a handler thread.
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
}
