import Registry

/// SQL pieces shared by the stores, so every timestamp leaves the database in one format.
enum SQLText {
    /// `column` as RFC 3339 UTC (`2026-09-01T10:00:00Z`), formatted by the server so the result
    /// does not depend on the session's TimeZone or DateStyle.
    static func utc(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
    }

    /// The columns `Application(row:)` reads, in its order.
    static let applicationColumns = "id, code, name, account_id, \(utc("created"))"
}

extension Application {
    init(row: PGRow) throws(PGError) {
        self.init(
            id: try row.int64(0), code: try row.string(1), name: try row.string(2), accountID: try row.int64(3),
            created: try row.string(4))
    }
}

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
            if error.kind == .invalidParameter { throw RegistryError.invalidArgument("text must not contain NUL characters") }
            throw error.registryError
        }
    }
}
