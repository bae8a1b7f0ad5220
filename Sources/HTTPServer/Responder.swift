/// The application: one request in, its response out. It is called on the connection's event
/// loop inside libmicrohttpd's callback, as a task that prefers that loop
/// (`Task.immediate(executorPreference:)`): an answer that needs no waiting (from memory)
/// completes inside the callback; one that waits suspends the connection, holding no thread,
/// and resumes it when the task ends. It must never block the loop: blocking or CPU-heavy work
/// awaits `RequestServices.work`.
public typealias Responder = @Sendable (HTTPRequest) async -> HTTPResponse

/// What the server lends one request: its seat for the waiting room's budgets, the handler
/// threads, and whether the loop still takes new work. Nil on a request made without a server
/// (tools), where work runs on the caller's thread.
public struct RequestServices: Sendable {
    /// Where the request's connection sits, for the waiting room's budgets.
    public let seat: WaitingRoom.Seat?
    private let waitingRoom: WaitingRoom?
    private let submit: @Sendable (_ job: @escaping @Sendable () -> Void) -> Bool
    private let loopTakesWork: @Sendable () -> Bool

    /// - Parameters:
    ///   - submit: queues a job for a handler thread; false when it no longer accepts any.
    ///   - loopTakesWork: false once the loop no longer drives new reads (see `acceptsLoopWork`).
    public init(
        seat: WaitingRoom.Seat?, waitingRoom: WaitingRoom?, submit: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Bool,
        loopTakesWork: @escaping @Sendable () -> Bool
    ) {
        self.seat = seat
        self.waitingRoom = waitingRoom
        self.submit = submit
        self.loopTakesWork = loopTakesWork
    }

    /// A server's services for a request on `connection`'s loop.
    init(context: ServerContext, seat: WaitingRoom.Seat?) {
        self.init(
            seat: seat, waitingRoom: context.waitingRoom, submit: { [handlerThreads = context.handlerThreads] job in handlerThreads.submit { job } },
            loopTakesWork: { [context] in !context.loopWorkClosed.load(ordering: .relaxed) })
    }

    /// Runs `body` on a handler thread and returns its value; nil when the server no longer
    /// accepts work (it is stopping).
    public func work<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            if !submit({ continuation.resume(returning: body()) }) { continuation.resume(returning: nil) }
        }
    }

    /// False once a stopping server has answered the reads its loops held: a request must then
    /// not start another one (it would never be driven), and answers that the server is
    /// shutting down.
    public var acceptsLoopWork: Bool { loopTakesWork() }

    /// Parks until the waiting room wakes `ticket`'s key or `deadline` passes, holding no
    /// thread; the request's task then goes on on its connection's loop. Without a waiting
    /// room it answers now.
    public func wait(_ ticket: WaitingRoom.Ticket, until deadline: ContinuousClock.Instant) async -> WakeReason {
        guard let waitingRoom else { return .answerNow }
        return await waitingRoom.wait(ticket, until: deadline, seat: seat)
    }
}
