import Foundation

extension Tenant {
    /// The same tenant speaking to another replica of its database.
    public func on(_ registry: TestRegistry) -> Tenant {
        Tenant(port: registry.port, code: code, token: token, accountID: accountID, tokenID: tokenID)
    }
}

/// Replicas learn of changes from the change feed, a moment after the commit: polls `probe` until it
/// returns a value accepted by `done`, for at most `seconds`, and returns the last value.
public func eventually<T>(seconds: Double = 5, _ probe: () throws -> T, until done: (T) -> Bool) throws -> T {
    let deadline = Date().addingTimeInterval(seconds)
    var value = try probe()
    while !done(value), Date() < deadline {
        usleep(20_000)
        value = try probe()
    }
    return value
}
