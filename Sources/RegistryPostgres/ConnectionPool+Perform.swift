import Registry

extension ConnectionPool {
    /// Runs a store operation and turns database failures into the service's errors: `conflict`
    /// claims the SQLSTATEs the operation expects (unique violation → 409), anything else
    /// becomes 503 (unreachable, timed out) or 500.
    func perform<T>(
        _ retry: RetryPolicy, conflict: (PGError) -> RegistryError? = { _ in nil },
        _ body: (PGConnection) throws -> T
    ) throws -> T {
        do {
            return try withConnection(retry: retry, body)
        } catch let error as PGError {
            if error.kind == .server, let mapped = conflict(error) { throw mapped }
            throw error.storeError
        }
    }
}

extension PGError {
    /// The service's error for a failure no operation claimed: a NUL in text is the client's
    /// mistake (400), anything else is `registryError` (503 or 500).
    var storeError: RegistryError {
        if kind == .invalidParameter { return .invalidArgument("text must not contain NUL characters") }
        return registryError
    }
}
