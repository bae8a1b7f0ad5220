/// A parked request (`Decision.wait`): what wakes it and what runs when it wakes.
public struct WaitRequest: Sendable {
    public let ticket: WaitingRoom.Ticket
    public let deadline: ContinuousClock.Instant
    /// Decides what follows the wake, on the connection's event loop: it must not block.
    public let then: @Sendable (WakeReason) -> Decision

    /// - Parameter ticket: taken before the application looked for events, so a wake between that
    ///   look and the parking is not lost: the request is woken at once instead.
    public init(ticket: WaitingRoom.Ticket, deadline: ContinuousClock.Instant, then: @escaping @Sendable (WakeReason) -> Decision) {
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
    /// No seat: the room, its share for the client address, or the event loop's share of
    /// the connections is full. The request was not parked (refuse it); its connection is
    /// closed after the answer.
    case full
    /// The server is stopping (or nothing can park): answer now, with what there is; parking
    /// again is answered with the shutting-down rejection.
    case answerNow
}
