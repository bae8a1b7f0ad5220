import Registry

extension PostgresSchemaStore {
    public func storedResponse(accountID: Int64, applicationID: Int64, idempotencyKey: String) async throws -> StoredResponse? {
        try await pool.value(of: Self.storedResponseRead(accountID: accountID, applicationID: applicationID, key: idempotencyKey))
    }

    /// The response recorded under a key of an account's application, if any.
    static func storedResponseRead(accountID: Int64, applicationID: Int64, key: String) -> StoreStatement<StoredResponse?> {
        StoreStatement(statement: readKey, parameters: [accountID, applicationID, key]) { result in
            try result.rows.first.map { row in StoredResponse(requestHash: try row.bytea(0), body: Array(try row.string(1).utf8)) }
        }
    }

    /// Claims the key inside the caller's transaction. Nil when it is now ours; otherwise the
    /// response recorded under it. A concurrent request with the same key blocks on the
    /// claim's unique index until this one commits (then reads its answer) or rolls back (then
    /// claims the key itself).
    static func claim(_ claim: IdempotencyClaim, on session: any SQLSession) async throws -> StoredResponse? {
        let scope: [(any PGParameter)?] = [claim.accountID, claim.applicationID, claim.key]
        _ = try await session.execute(dropExpiredKey, scope)
        let claimed = try await session.execute(claimKey, scope + [PGBytea(claim.requestHash)])
        guard claimed.rows.isEmpty else { return nil }
        guard let stored = try await storedResponseRead(accountID: claim.accountID, applicationID: claim.applicationID, key: claim.key)
            .run(on: session)
        else {
            throw RegistryError.internal("idempotency key vanished while claimed")
        }
        return stored
    }

    /// Removes keys older than 24 hours; the service calls it periodically.
    public func purgeExpiredIdempotencyKeys() throws -> Int {
        try pool.perform(.write) { connection in
            try connection.execute(Self.purgeKeys).affectedRows
        }
    }

    static let readKey = PGStatement(file: "idempotency_read")

    static let dropExpiredKey = PGStatement(file: "idempotency_drop_expired")

    /// The response is filled in by `recordResponse` before commit; nobody else can see the
    /// row earlier, so the placeholder is never read.
    static let claimKey = PGStatement(file: "idempotency_claim")

    static let recordResponse = PGStatement(file: "idempotency_record")

    static let purgeKeys = PGStatement(file: "idempotency_purge")
}
