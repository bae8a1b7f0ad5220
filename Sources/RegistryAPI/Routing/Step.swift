import HTTPServer
import Registry

/// What a route decides on the event loop: a response from memory, a read the store starts
/// without a thread waiting for it, or the rest of its work for a handler thread (work that
/// blocks on the store or takes much CPU). Each case is a closure over what was decided
/// already (the call, the caller, values found in memory), so nothing is done twice.
enum Step: Sendable {
    typealias Work = @Sendable () throws(RegistryError) -> HandlerAnswer
    /// Called exactly once with what follows the read, or why it failed.
    typealias Continuation = @Sendable (Result<Step, RegistryError>) -> Void

    case respond(HTTPResponse)
    case work(Work)
    /// Starts a read (`NonBlockingCalls`); the continuation goes on from its value, on the
    /// event loop when the store drives the read there, at once otherwise.
    case later(@Sendable (_ continuation: @escaping Continuation) -> Void)

    /// Continues with a value from memory when `known` holds one, right here; else starts
    /// `load` (a read of the store) and continues from its value when it completes.
    static func after<T: Sendable>(
        _ known: T?, load: @escaping @Sendable (@escaping @Sendable (Result<T, RegistryError>) -> Void) -> Void,
        then next: @escaping @Sendable (T) throws(RegistryError) -> Step
    ) throws(RegistryError) -> Step {
        if let known { return try next(known) }
        return reading(load, then: next)
    }

    /// Starts `read` on the store (a `NonBlockingCalls` read) and continues from its value.
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
