import HTTPServer
import Registry

/// What a route decides on the event loop: a response from memory, a read the store starts
/// without a thread waiting for it, the rest of its work for a handler thread (work that
/// blocks on the store or takes much CPU), or parking until an event (long polling). Each case
/// is a closure over what was decided already (the call, the caller, values found in memory),
/// so nothing is done twice.
enum Step: Sendable {
    /// Runs on a handler thread and says what follows (an answer, usually).
    typealias Work = @Sendable () throws(RegistryError) -> Step
    /// Called exactly once with what follows the read, or why it failed.
    typealias Continuation = @Sendable (Result<Step, RegistryError>) -> Void
    /// What follows a parked request's wake, on its event loop.
    typealias Wake = @Sendable (WakeReason) throws(RegistryError) -> Step

    case respond(HTTPResponse)
    case work(Work)
    /// Starts a read (`NonBlockingCalls`, `NonBlockingFeed`); the continuation goes on from its
    /// value, on the event loop when the store drives the read there, at once otherwise.
    case later(@Sendable (_ continuation: @escaping Continuation) -> Void)
    /// Parks the request (no thread, no database session) until the waiting room wakes
    /// `ticket`'s key or `deadline` passes; `then` goes on from why it woke. The ticket is
    /// taken before looking for what the request waits for, so nothing is missed in between.
    case wait(ticket: WaitingRoom.Ticket, deadline: ContinuousClock.Instant, then: Wake)

    /// Continues with a value from memory when `known` holds one, right here; else starts
    /// `load` (a read of the store) and continues from its value when it completes.
    static func after<T: Sendable>(
        _ known: T?, load: @escaping @Sendable (@escaping @Sendable (Result<T, RegistryError>) -> Void) -> Void,
        then next: @escaping @Sendable (T) throws(RegistryError) -> Step
    ) throws(RegistryError) -> Step {
        if let known { return try next(known) }
        return reading(load, then: next)
    }

    /// Starts `read` on the store (a `NonBlockingCalls` or `NonBlockingFeed` read) and continues
    /// from its value.
    static func reading<T: Sendable>(
        _ store: Storage, _ read: @escaping @Sendable (any SchemaStore, @escaping @Sendable (Result<T, any Error>) -> Void) -> Void,
        then next: @escaping @Sendable (T) throws(RegistryError) -> Step
    ) -> Step {
        reading({ done in store.start(read, then: done) }, then: next)
    }

    /// Starts `load` and continues from its value.
    static func reading<T: Sendable>(
        _ load: @escaping @Sendable (@escaping @Sendable (Result<T, RegistryError>) -> Void) -> Void,
        then next: @escaping @Sendable (T) throws(RegistryError) -> Step
    ) -> Step {
        .later { continuation in
            load { loaded in
                continuation(Result { () throws(RegistryError) in try next(loaded.get()) })
            }
        }
    }
}
