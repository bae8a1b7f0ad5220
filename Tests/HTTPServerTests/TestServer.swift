import Foundation
import HTTPServer
import Synchronization
import TestSupport

/// A started server plus the bookkeeping the tests look at.
final class TestServer: Sendable {
    let server: HTTPServer
    var port: Int { server.port }

    /// Echoes the request as text lines on a handler thread; `delay` simulates a handler
    /// blocked on the database. `inline` answers without awaiting (inside the event loop's
    /// callback) when it returns a response.
    init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(workers: 2),
        delay: Duration = .zero,
        inline: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
        handler: (@Sendable (HTTPRequest) -> HTTPResponse)? = nil
    ) throws {
        let recorder = Recorder()
        let blocking: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            if delay > .zero { Thread.sleep(forTimeInterval: delay.seconds) }
            recorder.requests.withLock { $0.append(request) }
            return handler?(request) ?? HTTPResponse(
                status: 200, headers: [("Content-Type", "text/plain")], body: Array(Self.echo(request).utf8))
        }
        server = HTTPServer(
            configuration: configuration,
            respond: { request in
                if let response = inline(request) { return response }
                return await request.services!.work { blocking(request) } ?? Self.rejection(.shuttingDown)
            },
            waitingRoom: WaitingRoom(capacity: 0),
            rejection: Self.rejection)
        self.recorder = recorder
        try server.start()
    }

    static func rejection(_ rejection: HTTPRejection) -> HTTPResponse {
        switch rejection {
        case .bodyTooLarge(let limit):
            return HTTPResponse(status: 413, body: Array("too large, limit \(limit)".utf8))
        case .invalidRequestTarget(let reason):
            return HTTPResponse(status: 400, body: Array("invalid: \(reason)".utf8))
        case .shuttingDown:
            return HTTPResponse(status: 503, body: Array("shutting down".utf8))
        }
    }

    private let recorder: Recorder
    var handled: [HTTPRequest] { recorder.requests.withLock { $0 } }

    private final class Recorder: Sendable {
        let requests = Mutex<[HTTPRequest]>([])
    }

    deinit { server.stop(graceSeconds: 1) }

    static func echo(_ request: HTTPRequest) -> String {
        var lines = ["method \(request.method)", "path \(request.path)"]
        lines += request.query.map { "query \($0.name)=\($0.value)" }
        lines += request.headers.map { "header \($0.name): \($0.value)" }
        lines.append("body \(String(decoding: request.body, as: UTF8.self))")
        return lines.joined(separator: "\n")
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A handler that blocks until the test opens the gate, like one waiting on the database.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    let entered = Atomic<Int>(0)

    func pass() {
        entered.add(1, ordering: .relaxed)
        semaphore.wait()
    }

    func open(_ count: Int) {
        for _ in 0..<count { semaphore.signal() }
    }

    /// The answer of `/block`: a handler thread held until the gate opens.
    func hold(_ request: HTTPRequest) async -> HTTPResponse {
        await request.services!.work {
            self.pass()
            return HTTPResponse(status: 200)
        } ?? HTTPResponse(status: 503)
    }
}

/// A request sent from another thread; `status()` waits for its answer.
final class BackgroundRequest: Sendable {
    private let result = Mutex<Int?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(port: Int, target: String) {
        Thread.detachNewThread { [self] in
            let status = (try? RawHTTPClient.send(port: port, target: target, timeoutSeconds: 60).status) ?? -1
            result.withLock { $0 = status }
            finished.signal()
        }
    }

    func status() -> Int? {
        finished.wait()
        return result.withLock { $0 }
    }
}
