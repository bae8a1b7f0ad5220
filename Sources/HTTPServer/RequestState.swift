import CMicroHTTPD
import EventLoop
import Synchronization

/// Per-request state kept behind MHD's `*con_cls` between the access-handler calls of one
/// request (headers, body chunks, end). Only the event loop that owns the connection
/// touches it, one call at a time.
final class RequestState {
    /// The request as received so far (body empty), or why it must be rejected.
    let head: Result<HTTPRequest, InvalidRequest>
    let declaredContentLength: UInt64?
    let maxBodyBytes: Int
    private(set) var body: [UInt8] = []
    /// Once set, further chunks are discarded: an oversized body is never held in memory.
    private(set) var bodyTooLarge = false
    /// Set once the request is answered or handed to a handler thread, so that a stray later
    /// call cannot answer twice.
    var answered = false
    /// Set while the request's task runs; its connection is suspended while the task waits.
    var pending: PendingAnswer?

    struct InvalidRequest: Error {
        let reason: String
        /// Answer on the first call and close: the body cannot be delimited safely, or reading
        /// more of this client is not worth it.
        var closeConnection = false
    }

    /// Set when the head alone must be refused and the connection closed, before any body.
    var refusedHead: InvalidRequest? {
        guard case .failure(let invalid) = head, invalid.closeConnection else { return nil }
        return invalid
    }

    init(head: Result<HTTPRequest, InvalidRequest>, declaredContentLength: UInt64?, maxBodyBytes: Int) {
        self.head = head
        self.declaredContentLength = declaredContentLength
        self.maxBodyBytes = maxBodyBytes
    }

    /// True when the declared length alone already exceeds the limit, so the request can be
    /// refused before a single body byte is read.
    var declaredBodyTooLarge: Bool {
        guard let declaredContentLength else { return false }
        return declaredContentLength > UInt64(maxBodyBytes)
    }

    func appendBody(_ chunk: UnsafeRawBufferPointer) {
        guard !bodyTooLarge else { return }
        guard chunk.count <= maxBodyBytes - body.count else {
            bodyTooLarge = true
            body = []
            return
        }
        // Invalid requests are answered without their body, so do not keep it either.
        guard case .success = head else { return }
        if body.isEmpty, let declaredContentLength {
            // Avoid doubling growth overshooting the limit when the size is known up front.
            body.reserveCapacity(Int(min(declaredContentLength, UInt64(maxBodyBytes))))
        }
        body.append(contentsOf: chunk)
    }

    /// The complete request for the handler, or the rejection to answer instead.
    func finish() -> Outcome {
        switch head {
        case .failure(let invalid):
            return .reject(.invalidRequestTarget(invalid.reason))
        case .success(var request):
            if bodyTooLarge { return .reject(.bodyTooLarge(limit: maxBodyBytes)) }
            request.body = body
            return .handle(request)
        }
    }

    enum Outcome {
        case handle(HTTPRequest)
        case reject(HTTPRejection)
    }
}

/// The answer of a request whose task runs, and the connection waiting for it. The task may
/// finish inside the access handler (nothing was awaited: the answer is sent at once) or
/// later, after the connection was suspended (the answer then resumes it). Exactly one of
/// the two sends it.
final class PendingAnswer: Sendable {
    private enum Phase {
        case running
        case waiting(SuspendedConnection)
        case answered(HTTPResponse)
        case sent
    }

    private let phase = Mutex(Phase.running)

    /// From the request's task, once it has its answer, or from a stopping server that cannot
    /// wait for it any longer; resumes the connection if it waits. The first answer wins.
    func finish(_ response: HTTPResponse) {
        let waiting = phase.withLock { phase -> SuspendedConnection? in
            switch phase {
            case .running:
                phase = .answered(response)
                return nil
            case .waiting(let connection):
                phase = .answered(response)
                return connection
            case .answered, .sent:
                return nil
            }
        }
        waiting?.resume()
    }

    /// Whether the connection still waits for the task's answer.
    var isWaiting: Bool {
        phase.withLock { phase in
            if case .waiting = phase { return true }
            return false
        }
    }

    /// From the access handler, right after the task started: its answer if it has finished,
    /// else nil, with the connection suspended (`suspend`, under the lock, so a task finishing
    /// on another thread meanwhile cannot miss it).
    func answerOrSuspend(_ suspend: () -> SuspendedConnection) -> HTTPResponse? {
        phase.withLock { phase in
            guard case .answered(let response) = phase else {
                phase = .waiting(suspend())
                return nil
            }
            phase = .sent
            return response
        }
    }

    /// From the access handler called again after the resume: the answer to send.
    func take() -> HTTPResponse? {
        phase.withLock { phase in
            guard case .answered(let response) = phase else { return nil }
            phase = .sent
            return response
        }
    }
}

/// A connection suspended in its event loop while its request's task waits (a read, a handler
/// thread, a wake). `@unchecked Sendable`: resuming (and handing its loop a task) is all this
/// permits, and it always happens on the connection's own loop. The daemon has no
/// inter-thread channel (its loop is ours), so a resume is a task on that loop, which then runs
/// the daemon to send the answer.
struct SuspendedConnection: @unchecked Sendable {
    /// A connection that may be suspended and resumed more than once (a streamed body).
    struct Handle: @unchecked Sendable {
        private let connection: OpaquePointer
        private let daemon: OpaquePointer
        private let loop: EventLoop

        /// Only on the connection's event loop (from a callback of its daemon).
        init(_ connection: OpaquePointer) {
            guard let loop = EventLoop.current, let daemon = cmhd_connection_daemon(connection) else {
                preconditionFailure("a connection is only touched on its event loop")
            }
            self.connection = connection
            self.daemon = daemon
            self.loop = loop
        }

        /// Only from the access handler or the content reader of this connection.
        func suspend() { MHD_suspend_connection(connection) }

        /// From any thread. Resumed on the loop, after which the daemon runs (it would not
        /// otherwise notice: without its own thread it has no wake-up channel), once for all
        /// the connections resumed in that turn.
        func resume() {
            loop.execute { [self] in
                MHD_resume_connection(connection)
                loop.afterTasks(key: Int(bitPattern: daemon)) { [daemon] in DaemonRun.run(daemon) }
            }
        }

        /// From any thread: runs `task` on the connection's event loop.
        func execute(_ task: @escaping @Sendable () -> Void) {
            loop.execute(task)
        }
    }

    private let handle: Handle
    /// Suspends `connection`; call only from the access handler.
    init(suspending connection: OpaquePointer) {
        handle = Handle(connection)
        handle.suspend()
    }

    func resume() {
        handle.resume()
    }
}
