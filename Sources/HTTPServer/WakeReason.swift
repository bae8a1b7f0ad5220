/// Why a parked request runs again.
public enum WakeReason: Sendable, Equatable {
    /// `wake` named its key: look again.
    case notified
    /// Its deadline passed.
    case deadline
    /// No seat: the room, its share for the client address, or the event loop's share of
    /// the connections is full. The request was not parked (refuse it, closing the connection).
    case full
    /// The server is stopping (or nothing can park): answer now, with what there is. From
    /// then on every wait ends at once with this reason.
    case answerNow
}
