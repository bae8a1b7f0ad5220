import HTTPServer
import Registry

/// What a route decides on the event loop: a response from memory, or the rest of its work,
/// which needs the store and so runs on a handler thread. The work is a closure over what was
/// decided already (the call, the caller, values found in memory), so nothing is done twice.
enum Step: Sendable {
    typealias Work = @Sendable () throws(RegistryError) -> HandlerAnswer

    case respond(HTTPResponse)
    case work(Work)

    /// Continues with a value from memory when `known` holds one, right here; else leaves the
    /// `load` (from the store) and what follows for a handler thread.
    static func after<T: Sendable>(
        _ known: T?, load: @escaping @Sendable () throws(RegistryError) -> T,
        then next: @escaping @Sendable (T) throws(RegistryError) -> Step
    ) throws(RegistryError) -> Step {
        if let known { return try next(known) }
        return .work { () throws(RegistryError) in try next(try load()).run() }
    }

    /// The answer, doing any work left; only on a handler thread.
    func run() throws(RegistryError) -> HandlerAnswer {
        switch self {
        case .respond(let response): .respond(response)
        case .work(let work): try work()
        }
    }
}
