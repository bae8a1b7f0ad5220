import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Event loops answer from memory; handlers that may block run on handler threads while their
/// connection is suspended.

private func gatedServer(workers: Int, eventLoops: Int, gate: Gate) throws -> TestServer {
    try TestServer(
        configuration: HTTPServerConfiguration(workers: workers, eventLoops: eventLoops),
        inline: { request in
            request.path == "/memory" ? HTTPResponse(status: 200, body: Array("from memory".utf8)) : nil
        },
        handler: { request in
            gate.pass()
            return HTTPResponse(status: 200, body: Array("handled \(request.path)".utf8))
        })
}

@Test func answersFromMemoryWhileEveryHandlerThreadIsBlocked() throws {
    let gate = Gate()
    let test = try gatedServer(workers: 1, eventLoops: 1, gate: gate)
    let port = test.port
    let blocked = BackgroundRequest(port: port, target: "/store")
    #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
    // The only handler thread is stuck and the only event loop has a suspended connection,
    // yet a memory answer still goes out.
    let fromMemory = try RawHTTPClient.send(port: port, target: "/memory")
    #expect(fromMemory.status == 200)
    #expect(String(decoding: fromMemory.body, as: UTF8.self) == "from memory")
    gate.open(1)
    #expect(blocked.status() == 200)
}

@Test func moreRequestsThanHandlerThreadsQueueAndAreAllAnswered() throws {
    let test = try TestServer(configuration: HTTPServerConfiguration(workers: 2, eventLoops: 1), delay: .milliseconds(20))
    let statuses = onThreads(24) { index in
        try RawHTTPClient.send(port: test.port, target: "/queued/\(index)", timeoutSeconds: 10).status
    }.map { (try? $0.get()) ?? -1 }
    #expect(statuses.allSatisfy { $0 == 200 })
    #expect(test.handled.count == 24)
}

@Test func aConnectionStaysAliveAcrossAnswersFromHandlerThreadsAndMemory() throws {
    let test = try TestServer(
        configuration: HTTPServerConfiguration(workers: 1, eventLoops: 1),
        inline: { $0.path == "/memory" ? HTTPResponse(status: 204) : nil })
    let connection = try RawHTTPConnection(port: test.port)
    for target in ["/store/1", "/memory", "/store/2", "/store/3", "/memory"] {
        try connection.write(RawHTTPRequest(target: target).encoded(closeConnection: false))
        let response = try connection.readResponse()
        #expect(response.status == (target == "/memory" ? 204 : 200), "\(target)")
        #expect(response.header("connection")?.lowercased() != "close", "\(target)")
    }
    #expect(test.handled.map(\.path) == ["/store/1", "/store/2", "/store/3"])
}

@Test func stopWaitsForSuspendedRequestsAndRefusesNewOnesPastTheGrace() throws {
    let gate = Gate()
    let test = try gatedServer(workers: 1, eventLoops: 1, gate: gate)
    let port = test.port
    let keptAlive = try RawHTTPConnection(port: port)
    try keptAlive.write(RawHTTPRequest(target: "/memory").encoded(closeConnection: false))
    #expect(try keptAlive.readResponse().status == 200)
    let first = BackgroundRequest(port: port, target: "/store")
    #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
    let stopped = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        test.server.stop(graceSeconds: 0.2)
        stopped.signal()
    }
    // Past the grace the server is draining its handler threads: a new request on a kept-alive
    // connection is refused instead of queued behind them.
    Thread.sleep(forTimeInterval: 0.5)
    try keptAlive.write(RawHTTPRequest(target: "/store/late").encoded(closeConnection: false))
    let late = try keptAlive.readResponse()
    // Its task's `work` was refused (nil): the answer says the server is shutting down.
    #expect(late.status == 503 && late.bodyText == "shutting down")
    #expect(late.header("connection")?.lowercased() == "close")
    gate.open(1)
    #expect(first.status() == 200)
    stopped.wait()
    #expect(test.server.inFlightRequests == 0)
}
