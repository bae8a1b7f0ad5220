/// What work on a handler thread answers (`Decision.work`): a response now, or a request to
/// wait for an event.
public enum HandlerAnswer: Sendable {
    case respond(HTTPResponse)
    /// Park the request, with no thread and its connection suspended, until `WaitingRoom.wake`
    /// names its key or its deadline passes; `then` then runs on a handler thread and answers
    /// (or waits again).
    case wait(WaitRequest)
}

/// A parked request: what wakes it and what runs when it wakes.
public struct WaitRequest: Sendable {
    public let ticket: WaitingRoom.Ticket
    public let deadline: ContinuousClock.Instant
    public let then: @Sendable (WakeReason) -> HandlerAnswer

    /// - Parameter ticket: taken before the handler looked for events, so a wake between that
    ///   look and the parking is not lost: the request is woken at once instead.
    public init(ticket: WaitingRoom.Ticket, deadline: ContinuousClock.Instant, then: @escaping @Sendable (WakeReason) -> HandlerAnswer) {
        self.ticket = ticket
        self.deadline = deadline
        self.then = then
    }
}

/// Why a parked request runs again.
public enum WakeReason: Sendable, Equatable {
    /// `wake` named its key: look again.
    case notified
    /// Its deadline passed.
    case deadline
    /// The room is full: this request could not be parked.
    case full
    /// The server is stopping (or nothing can park): answer now, with what there is; waiting
    /// again is answered with the shutting-down rejection.
    case answerNow
}
