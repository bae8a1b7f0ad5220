import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An HTTP/1.1 server on libmicrohttpd that hides every C type, so the rest of the service
/// only deals in `HTTPRequest` and `HTTPResponse`.
///
/// `eventLoops` single-threaded daemons share one port (SO_REUSEPORT); each runs on its own
/// `EventLoop`, which does all the network work and also waits for what the requests started
/// there wait for (database reads). `workers` handler threads run the work that blocks or
/// takes much CPU, with the connection suspended meanwhile. Each request is a task started on
/// its event loop (`respond`): an answer needing no waiting goes out without a thread switch. All
/// closures are called concurrently. Never call `stop` from inside a handler: stopping waits
/// for the handlers to finish.
public final class HTTPServer: Sendable {
    private let configuration: HTTPServerConfiguration
    private let context: ServerContext
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        enum Phase { case idle, running, stopped }
        var phase = Phase.idle
        var daemons: [Daemon] = []
        var port = 0
        var quiesced = false
        var stopRequested = false
        /// Listening sockets handed back by MHD on quiesce; closed after the daemons stop.
        var quiescedSockets: [Int32] = []
    }

    /// A server whose every request runs `handler` on a handler thread.
    /// - Parameters:
    ///   - handler: answers any request; may block.
    ///   - rejection: lets the application word refusals (413, 400, 503) like its other errors.
    public convenience init(
        configuration: HTTPServerConfiguration,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        rejection: @escaping @Sendable (HTTPRejection) -> HTTPResponse
    ) {
        self.init(
            configuration: configuration,
            respond: { request in await request.services?.work { handler(request) } ?? rejection(.shuttingDown) },
            waitingRoom: WaitingRoom(capacity: 0), rejection: rejection)
    }

    /// - Parameters:
    ///   - respond: the application, a task per request on its event loop (see `Responder`).
    ///     A request may wait in `waitingRoom` (long polling), holding no thread, until woken;
    ///     stopping the server wakes every waiting request at once (`WakeReason.answerNow`).
    ///   - rejection: lets the application word refusals (413, 400, 503) like its other errors.
    public init(
        configuration: HTTPServerConfiguration,
        respond: @escaping Responder,
        waitingRoom: WaitingRoom,
        rejection: @escaping @Sendable (HTTPRejection) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.context = ServerContext(
            configuration: configuration, respond: respond, waitingRoom: waitingRoom, rejection: rejection)
    }

    deinit {
        stop(graceSeconds: 0)
    }

    /// Separate from `init` so that a bind failure is a thrown error the caller can report.
    /// A server starts once; after `stop` make a new one.
    public func start() throws {
        try lifecycle.withLock { state throws(HTTPServerError) in
            guard state.phase == .idle else {
                throw HTTPServerError(state.phase == .running ? "the server is already running" : "a stopped server cannot be restarted")
            }
            try configuration.validate()
            try configuration.validate(context.waitingRoom)
            let address = try SocketAddress(host: configuration.host, port: configuration.port)
            if configuration.port != 0 { try address.probeBind() }

            var daemons: [Daemon] = []
            do throws(HTTPServerError) {
                let first = try Daemon.start(address: address, configuration: configuration, context: context, index: 0)
                daemons.append(first)
                let port = first.port
                guard port > 0 else { throw HTTPServerError("cannot read the port bound on \(address.description)") }
                let shared = address.withPort(port)
                for index in 1..<configuration.eventLoopCount {
                    daemons.append(try Daemon.start(address: shared, configuration: configuration, context: context, index: index))
                }
                state.port = port
            } catch {
                for daemon in daemons { daemon.stop() }
                throw error
            }
            state.daemons = daemons
            state.phase = .running
            startDeadlineSweeper()
        }
    }

    /// Checks receive deadlines four times a second, so a slow sender is cut off within a
    /// quarter second of its connection timeout.
    private func startDeadlineSweeper() {
        let context = context
        Thread.detachNewThread {
            while !context.stopped.load(ordering: .relaxed) {
                usleep(250_000)
                context.receiveDeadlines.sweep()
            }
        }
    }

    /// Useful after starting on port 0; 0 before `start`.
    public var port: Int {
        lifecycle.withLock { $0.port }
    }

    /// Requests received but not yet fully answered; what `stop` waits for.
    public var inFlightRequests: Int {
        context.inFlight.load(ordering: .relaxed)
    }

    /// How long `stop` lets the event loops send the answers of handlers that finished after
    /// the grace period, before the daemons close every connection.
    static let answerFlushTime = Duration.seconds(2)

    /// First step of a graceful shutdown: new connections are refused at once (the listening
    /// sockets leave the SO_REUSEPORT group), requests in progress continue, parked requests
    /// answer now, and later answers carry `Connection: close` so keep-alive clients reconnect
    /// elsewhere.
    public func quiesce() {
        lifecycle.withLock { state in
            guard state.phase == .running, !state.quiesced else { return }
            state.quiesced = true
            context.quiescing.store(true, ordering: .relaxed)
            context.waitingRoom.stop()
            for daemon in state.daemons {
                guard let fd = daemon.quiesce() else { continue }
                // Without this, the kernel keeps queueing connections on the idle socket
                // until it is closed. SHUT_RD on a listening socket stops listening and
                // resets the queue; the descriptor stays valid, so MHD's thread is unaffected.
                shutdown(fd, Int32(SHUT_RD))
                state.quiescedSockets.append(fd)
            }
        }
    }

    /// Answers, with the shutting-down rejection, every request whose task is still waiting
    /// (on something of the application's own, such as a queue), and gives those answers a
    /// moment to go out: libmicrohttpd must not stop with a connection suspended. A task that
    /// ends later finds its request answered.
    private func answerTasksStillWaiting() {
        let waiting = context.suspended.withLock { suspended in
            defer { suspended = [:] }
            return suspended.values.filter(\.isWaiting)
        }
        guard !waiting.isEmpty else { return }
        for pending in waiting { pending.finish(context.rejection(.shuttingDown)) }
        let deadline = ContinuousClock.now.advanced(by: Self.answerFlushTime)
        while inFlightRequests > 0 && ContinuousClock.now < deadline {
            usleep(2_000)
        }
    }

    /// Lets in-flight requests finish for up to `graceSeconds`, then closes everything.
    /// Safe to call more than once: later calls return at once, without waiting for the first
    /// to finish. Past the deadline, new requests get the `shuttingDown` rejection, and
    /// handlers still running are waited for (a thread cannot be interrupted; MHD must not
    /// stop with a connection suspended); their answers then get up to `answerFlushTime` to
    /// reach the socket (a request still receiving its body may hold that whole time).
    public func stop(graceSeconds: Double) {
        let first = lifecycle.withLock { state in
            defer { state.stopRequested = true }
            return !state.stopRequested
        }
        guard first else { return }
        quiesce()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int64(max(0, graceSeconds) * 1000)))
        while inFlightRequests > 0 && clock.now < deadline {
            usleep(2_000)
        }
        context.handlerThreads.stopAccepting()
        context.handlerThreads.drain()
        // Reads still waiting on the loops are answered too (a retry hint), so that no
        // connection stays suspended.
        context.loopWorkClosed.store(true, ordering: .relaxed)
        let running = lifecycle.withLock { $0.daemons }
        for daemon in running { daemon.closeAttachments() }
        // The handlers that were still running have answered; their connections were resumed
        // on the event loops, which need a moment to send those answers before the daemons stop.
        let flushDeadline = clock.now.advanced(by: Self.answerFlushTime)
        while inFlightRequests > 0 && clock.now < flushDeadline {
            usleep(2_000)
        }
        answerTasksStillWaiting()
        let (daemons, sockets) = lifecycle.withLock { state in
            let taken = (state.daemons, state.quiescedSockets)
            state.daemons = []
            state.quiescedSockets = []
            state.phase = .stopped
            return taken
        }
        for daemon in daemons { daemon.stop() }
        for fd in sockets { close(fd) }
        context.handlerThreads.close()
        context.stopped.store(true, ordering: .relaxed)
    }
}
