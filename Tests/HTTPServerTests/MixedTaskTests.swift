import EventLoop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Requests of every shape at once on two loops and kept-alive connections: answered without
/// waiting, after a handler thread, after a completion from another thread, after waits that
/// end at once or by a wake, and mixes of them. Each gets its own answer, and every connection
/// is resumed exactly when its task ends, whichever thread ends it.
@Suite struct MixedTaskTests {
    private static let shapes = ["inline", "work", "thread", "mixed", "notified", "woken"]

    @Test func everyShapeOfTaskAnswersItsOwnRequestUnderLoad() throws {
        let room = WaitingRoom(capacity: 200)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(workers: 2, eventLoops: 2),
            respond: { request in
                let services = request.services!
                let shape = request.path.split(separator: "/").first.map(String.init) ?? ""
                let loop = EventLoop.current
                var steps: [String] = []
                switch shape {
                case "inline": break
                case "work": if await services.work({ 1 }) == 1 { steps.append("w") }
                case "thread": steps.append(await Self.fromAnotherThread("t"))
                case "mixed":
                    steps.append(await Self.fromAnotherThread("t"))
                    if await services.work({ 1 }) == 1 { steps.append("w") }
                    steps.append(await Self.fromAnotherThread("t"))
                case "notified":
                    // The ticket is stale already: the wait ends at once.
                    let ticket = room.ticket(request.path)
                    room.wake(request.path)
                    steps.append("\(await services.wait(ticket, until: .now + .seconds(30)))")
                case "woken":
                    let ticket = room.ticket(request.path)
                    let path = request.path
                    Thread.detachNewThread { room.wake(path) }
                    steps.append("\(await services.wait(ticket, until: .now + .seconds(30)))")
                default: return HTTPResponse(status: 404)
                }
                let sameLoop = loop != nil && EventLoop.current === loop
                return HTTPResponse(status: 200, body: Array("\(request.path) \(steps.joined(separator: ",")) \(sameLoop)".utf8))
            },
            waitingRoom: room,
            rejection: { _ in HTTPResponse(status: 503) })
        try server.start()
        defer { server.stop(graceSeconds: 1) }
        let (clients, perClient) = (8, 60)
        let mismatches = onThreads(clients) { client in
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 20)
            var wrong: [String] = []
            for index in 0..<perClient {
                let shape = Self.shapes[(client + index) % Self.shapes.count]
                let path = "/\(shape)/\(client)-\(index)"
                try connection.write(RawHTTPRequest(target: path).encoded(closeConnection: false))
                let body = try connection.readResponse().bodyText
                if body != "\(path) \(Self.steps(shape)) true" { wrong.append(body) }
            }
            return wrong
        }
        var answered = 0
        for result in mismatches {
            let wrong = try result.get()
            #expect(wrong.isEmpty, "\(wrong.prefix(3))")
            answered += perClient - wrong.count
        }
        #expect(answered == clients * perClient)
        #expect(room.count == 0)
    }

    private static func steps(_ shape: String) -> String {
        switch shape {
        case "work": "w"
        case "thread": "t"
        case "mixed": "t,w,t"
        case "notified", "woken": "notified"
        default: ""
        }
    }

    private static func fromAnotherThread(_ value: String) async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            Thread.detachNewThread { continuation.resume(returning: value) }
        }
    }
}
