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
    /// Set while a handler thread works on the request; its connection is suspended meanwhile.
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

/// The answer a handler thread produces for a suspended connection. The handler thread sets
/// it, then resumes the connection; the connection's event loop takes it on its next call.
final class PendingAnswer: Sendable {
    private let response = Mutex<HTTPResponse?>(nil)
    private let closing = Atomic<Bool>(false)

    /// Set when the request was refused for want of connections (the waiting room had no seat
    /// for it): the answer then closes the connection, giving the slot back.
    func closeConnectionAfterAnswer() {
        closing.store(true, ordering: .relaxed)
    }

    var closesConnection: Bool { closing.load(ordering: .relaxed) }

    func set(_ answer: HTTPResponse) {
        response.withLock { $0 = answer }
    }

    func take() -> HTTPResponse? {
        response.withLock { answer in
            defer { answer = nil }
            return answer
        }
    }
}

/// A connection suspended in its event loop while a handler thread or a read works, or while
/// its request is parked. `@unchecked Sendable`: resuming (and handing its loop a task) is all
/// this permits, and it always happens on the connection's own loop. The daemon has no
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
    /// What a request of this connection that parks is counted against.
    let seat: WaitingRoom.Seat?

    /// Suspends `connection`; call only from the access handler.
    init(suspending connection: OpaquePointer, seat: WaitingRoom.Seat?) {
        handle = Handle(connection)
        self.seat = seat
        handle.suspend()
    }

    func resume() {
        handle.resume()
    }

    /// From any thread: runs `task` on the connection's event loop, where what follows a wake
    /// or a handler's work goes on (I/O it starts is driven by that loop).
    func execute(_ task: @escaping @Sendable () -> Void) {
        handle.execute(task)
    }
}
