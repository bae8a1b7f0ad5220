/// The application: one request in, its response out. It is called on the connection's event
/// loop inside libmicrohttpd's callback, as a task that prefers that loop
/// (`Task.immediate(executorPreference:)`): an answer that needs no waiting (from memory)
/// completes inside the callback; one that waits suspends the connection, holding no thread,
/// and resumes it when the task ends. It must never block the loop: blocking or CPU-heavy work
/// awaits `RequestServices.work`.
public typealias Responder = @Sendable (HTTPRequest) async -> HTTPResponse

/// What a server lends its requests: handler threads, a waiting room, and whether its loops
/// still take new work. The server is one; a test can stand in for it.
public protocol ServerResources: Sendable {
    /// Queues `job` for a handler thread; false when no more are accepted (the server stops).
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool
    /// False once the loops no longer drive new reads (see `RequestServices.acceptsLoopWork`).
    var takesLoopWork: Bool { get }
    /// Where requests wait for events; nil where nothing can wait.
    var roomForWaiting: WaitingRoom? { get }
}

/// What the server lends one request: its seat for the waiting room's budgets and the
/// server's resources. Nil on a request made without a server (tools), where work runs on the
/// caller's thread. Made per request without allocating: the resources are the server itself.
public struct RequestServices: Sendable {
    /// Where the request's connection sits, for the waiting room's budgets.
    public let seat: WaitingRoom.Seat?
    private let resources: any ServerResources

    public init(seat: WaitingRoom.Seat?, resources: any ServerResources) {
        self.seat = seat
        self.resources = resources
    }

    /// Runs `body` on a handler thread and returns its value; nil when the server no longer
    /// accepts work (it is stopping).
    public func work<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            if !resources.submit({ continuation.resume(returning: body()) }) { continuation.resume(returning: nil) }
        }
    }

    /// False once a stopping server has answered the reads its loops held: a request must then
    /// not start another one (it would never be driven), and answers that the server is
    /// shutting down.
    public var acceptsLoopWork: Bool { resources.takesLoopWork }

    /// Parks until the waiting room wakes `ticket`'s key or `deadline` passes, holding no
    /// thread; the request's task then goes on on its connection's loop. Without a waiting
    /// room it answers now.
    public func wait(_ ticket: WaitingRoom.Ticket, until deadline: ContinuousClock.Instant) async -> WakeReason {
        guard let waitingRoom = resources.roomForWaiting else { return .answerNow }
        return await waitingRoom.wait(ticket, until: deadline, seat: seat)
    }
}

extension ServerContext: ServerResources {
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        handlerThreads.submit { job }
    }

    var takesLoopWork: Bool { !loopWorkClosed.load(ordering: .relaxed) }

    var roomForWaiting: WaitingRoom? { waitingRoom }
}
