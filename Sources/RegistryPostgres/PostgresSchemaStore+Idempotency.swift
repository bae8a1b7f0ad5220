import Registry

extension PostgresSchemaStore {
    public func storedResponse(accountID: Int64, idempotencyKey: String) throws -> StoredResponse? {
        try pool.perform(.read) { connection in
            try connection.execute(Self.readKey, [accountID, idempotencyKey]).rows.first.map { row in
                StoredResponse(requestHash: try row.bytea(0), body: Array(try row.string(1).utf8))
            }
        }
    }

    /// Claim, publish, review, audit and record in one transaction. A concurrent request with
    /// the same key blocks on the claim's unique index until this one commits (then reads its
    /// answer) or rolls back (then claims the key itself), so a key never publishes twice. The
    /// review runs before the commit, so it may veto the publish, and the audit event carries
    /// what it accepted.
    public func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?, response: (Publication) throws -> PublishAnswer
    ) throws -> IdempotentPublish {
        return try pool.perform(.write, conflict: { Self.publishConflict($0, attributesType: attributesType, version: version) }) {
            connection in
            try connection.transaction {
                if let claim, let replayed = try Self.claim(claim, on: connection) { return replayed }
                let (schema, body) = try Self.publishReviewedAndAudited(
                    application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema,
                    by: actor, comparing: comparison, once: claim, response: response, on: connection)
                return .published(schema, body: body)
            }
        }
    }

    /// Publish, review, audit event and the key's record, inside the caller's transaction
    /// (after its claim): the one path of every publish, so `ifExists` publishes are reviewed
    /// under the same policy and audited like the others.
    static func publishReviewedAndAudited(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?, response: (Publication) throws -> PublishAnswer,
        on connection: PGConnection
    ) throws -> (SchemaVersion, body: [UInt8]) {
        let publication = try reviewedPublication(
            application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema,
            by: actor, comparing: comparison, on: connection)
        let answer = try response(publication)
        try recordPublish(publication.schema, of: application, by: actor, details: answer.auditDetails, on: connection)
        if let claim {
            _ = try connection.execute(recordResponse, [claim.accountID, claim.key, String(decoding: answer.body, as: UTF8.self)])
        }
        return (publication.schema, answer.body)
    }

    /// Claims the key inside the caller's transaction. Nil when it is now ours; otherwise the
    /// answer recorded under it (the same body) or a 409 (another body).
    static func claim(_ claim: IdempotencyClaim, on connection: PGConnection) throws -> IdempotentPublish? {
        _ = try connection.execute(dropExpiredKey, [claim.accountID, claim.key])
        let claimed = try connection.execute(claimKey, [claim.accountID, claim.key, PGBytea(claim.requestHash)])
        guard claimed.rows.isEmpty else { return nil }
        guard let row = try connection.execute(readKey, [claim.accountID, claim.key]).rows.first else {
            throw RegistryError.internal("idempotency key vanished while claimed")
        }
        guard try row.bytea(0) == claim.requestHash else { throw IdempotencyKey.mismatch(claim.key) }
        return .replayed(body: Array(try row.string(1).utf8))
    }

    /// Removes keys older than 24 hours; the service calls it periodically.
    public func purgeExpiredIdempotencyKeys() throws -> Int {
        try pool.perform(.write) { connection in
            try connection.execute(Self.purgeKeys).affectedRows
        }
    }

    private static let keyAge = "interval '\(IdempotencyKey.lifetimeHours) hours'"

    static let readKey = PGStatement(file: "idempotency_read")

    static let dropExpiredKey = PGStatement(file: "idempotency_drop_expired")

    /// The response is filled in by `recordResponse` before commit; nobody else can see the
    /// row earlier, so the placeholder is never read.
    static let claimKey = PGStatement(file: "idempotency_claim")

    static let recordResponse = PGStatement(file: "idempotency_record")

    static let purgeKeys = PGStatement(file: "idempotency_purge")
}
