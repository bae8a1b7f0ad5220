import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

@Test func severalWorkersServeSlowRequestsInParallel() throws {
    let test = try TestServer(configuration: HTTPServerConfiguration(workers: 8), delay: .milliseconds(50))
    let started = Date()
    let statuses = onThreads(50) { index in
        try RawHTTPClient.send(port: test.port, target: "/slow/\(index)", timeoutSeconds: 10).status
    }.map { (try? $0.get()) ?? -1 }
    let elapsed = Date().timeIntervalSince(started)
    #expect(statuses.allSatisfy { $0 == 200 })
    #expect(test.handled.count == 50)
    // Serial would be 2.5 s; 8 workers ideally ~0.35 s. SO_REUSEPORT hashing is uneven, so be loose.
    #expect(elapsed < 1.5, "took \(elapsed) s")
}

@Test func portZeroBindsAnEphemeralPortSharedByAllWorkers() throws {
    let test = try TestServer(configuration: HTTPServerConfiguration(workers: 4))
    #expect(test.port > 0)
    let statuses = onThreads(16) { _ in try RawHTTPClient.send(port: test.port, target: "/").status }.map { (try? $0.get()) ?? -1 }
    #expect(statuses.allSatisfy { $0 == 200 })
}

@Test func stopLetsAnInFlightSlowRequestComplete() throws {
    let test = try TestServer(delay: .milliseconds(400))
    let port = test.port
    let result = Mutex<Int?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let status = (try? RawHTTPClient.send(port: port, target: "/slow", timeoutSeconds: 10).status) ?? -1
        result.withLock { $0 = status }
        finished.signal()
    }
    #expect(waitUntil { test.server.inFlightRequests == 1 })
    let started = Date()
    test.server.stop(graceSeconds: 5)
    let stopDuration = Date().timeIntervalSince(started)
    finished.wait()
    #expect(result.withLock { $0 } == 200)
    #expect(test.server.inFlightRequests == 0)
    #expect(stopDuration < 3, "stop took \(stopDuration) s")
    #expect(throws: RawHTTPError.self) { try RawHTTPClient.send(port: port, target: "/after-stop") }
    test.server.stop(graceSeconds: 5)  // second stop: no effect, no crash
}

@Test func quiesceRefusesNewConnectionsButFinishesInFlightAndClosesKeepAlive() throws {
    let test = try TestServer(delay: .milliseconds(300))
    let port = test.port
    let connection = try RawHTTPConnection(port: port)
    try connection.write(RawHTTPRequest(target: "/slow").encoded(closeConnection: false))
    #expect(waitUntil { test.server.inFlightRequests == 1 })
    test.server.quiesce()
    test.server.quiesce()
    #expect(throws: RawHTTPError.self) { try RawHTTPClient.send(port: port, target: "/new", timeoutSeconds: 2) }
    let response = try connection.readResponse()
    #expect(response.status == 200)
    #expect(response.header("connection")?.lowercased() == "close")
    test.server.stop(graceSeconds: 1)
}

@Test func stopWithGraceExpiredStillReturnsAndIsIdempotent() throws {
    let test = try TestServer(delay: .milliseconds(300))
    let port = test.port
    Thread.detachNewThread { _ = try? RawHTTPClient.send(port: port, target: "/slow", timeoutSeconds: 5) }
    #expect(waitUntil { test.server.inFlightRequests == 1 })
    test.server.stop(graceSeconds: 0)  // waits for the running handler (threads cannot be cut off)
    test.server.stop(graceSeconds: 0)
    #expect(test.server.inFlightRequests == 0)
}

@Test func stopBeforeStartIsHarmlessAndRestartIsRefused() throws {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(), handler: { _ in HTTPResponse(status: 200) },
        rejection: { _ in HTTPResponse(status: 400) })
    server.stop(graceSeconds: 0)
    server.stop(graceSeconds: 0)
    #expect(throws: HTTPServerError.self) { try server.start() }
}

@Test func startingTwiceIsAnError() throws {
    let test = try TestServer()
    #expect(throws: HTTPServerError.self) { try test.server.start() }
}

@Test func startOnAPortInUseThrowsAClearError() throws {
    let holder = try TestServer(configuration: HTTPServerConfiguration(workers: 1))
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(port: holder.port), handler: { _ in HTTPResponse(status: 200) },
        rejection: { _ in HTTPResponse(status: 400) })
    let error = try #require(throws: HTTPServerError.self) { try server.start() }
    #expect(error.message.contains("in use"), "\(error.message)")
    // The holder keeps its port to itself.
    #expect(try RawHTTPClient.send(port: holder.port, target: "/").status == 200)
}

@Test func invalidConfigurationIsRejectedAtStart() {
    for configuration in [
        HTTPServerConfiguration(host: "localhost"),
        HTTPServerConfiguration(port: 70000),
        HTTPServerConfiguration(workers: 0),
        HTTPServerConfiguration(connectionLimit: 0),
    ] {
        let server = HTTPServer(configuration: configuration, handler: { _ in HTTPResponse(status: 200) },
                                rejection: { _ in HTTPResponse(status: 400) })
        #expect(throws: HTTPServerError.self) { try server.start() }
    }
}

@Test func ipv6LoopbackWorks() throws {
    let test = try TestServer(configuration: HTTPServerConfiguration(host: "::1", workers: 2))
    #expect(test.port > 0)
}

@Test func connectionLimitIsEnforcedPerProcess() throws {
    // 2 workers sharing a limit of 2: one connection each. Past it MHD stops accepting, so
    // the other connections wait in the kernel's queue and are never answered meanwhile.
    let test = try TestServer(configuration: HTTPServerConfiguration(workers: 2, connectionLimit: 2))
    var held: [RawHTTPConnection] = []
    for _ in 0..<6 { held.append(try RawHTTPConnection(port: test.port, timeoutSeconds: 1)) }
    var answered = 0
    for connection in held {
        try? connection.write(RawHTTPRequest(target: "/").encoded(closeConnection: false))
    }
    for connection in held where (try? connection.readResponse())?.status == 200 { answered += 1 }
    #expect(answered >= 1 && answered <= 2, "answered \(answered)")
}

@Test func errorLogReceivesDiagnostics() throws {
    let messages = Mutex<[String]>([])
    let test = try TestServer(configuration: HTTPServerConfiguration(
        workers: 1, connectionMemoryLimitBytes: 2048, errorLog: { message in messages.withLock { $0.append(message) } }))
    let big = String(repeating: "h", count: 4096)
    _ = try? RawHTTPClient.sendRaw(port: test.port, bytes: Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n".utf8))
    #expect(waitUntil(timeoutSeconds: 2) { !messages.withLock { $0.isEmpty } })
}

/// A task that waits on something of the application's own, which outlasts the stop, is
/// answered with the shutting-down rejection: libmicrohttpd must never stop with a connection
/// suspended (it aborts the process), and the answer the task gives later is dropped.
@Test func stopAnswersATaskStillWaitingAfterTheFlush() throws {
    let late = DispatchSemaphore(value: 0)
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(workers: 1),
        respond: { _ in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 6) {
                    continuation.resume()
                    late.signal()
                }
            }
            return HTTPResponse(status: 200)
        },
        waitingRoom: WaitingRoom(capacity: 0),
        rejection: { _ in HTTPResponse(status: 503, body: Array("shutting down".utf8)) })
    try server.start()
    let port = server.port
    let status = Mutex<Int?>(nil)
    let answered = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let response = try? RawHTTPClient.send(port: port, target: "/waits", timeoutSeconds: 10)
        status.withLock { $0 = response?.status ?? -1 }
        answered.signal()
    }
    #expect(waitUntil { server.inFlightRequests == 1 })
    server.stop(graceSeconds: 0)
    #expect(answered.wait(timeout: .now() + 10) == .success)
    #expect(status.withLock { $0 } == 503)
    #expect(late.wait(timeout: .now() + 10) == .success, "the task ends later, and its answer is dropped")
}
