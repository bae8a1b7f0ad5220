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

    /// Runs `statement` ($1 days, $2 batch size) until a batch deletes fewer than `batchSize`
    /// rows: each batch is its own short statement, so pruning never holds many locks or a long
    /// transaction. Returns how many rows it deleted.
    func deleteInBatches(_ statement: PGStatement, olderThanDays days: Int, batchSize: Int) throws -> Int {
        var total = 0
        while true {
            let deleted = try perform(.write) { try $0.execute(statement, [Int64(days), Int64(batchSize)]).affectedRows }
            total += deleted
            if deleted < batchSize { return total }
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
