import Registry

/// Lookup by content and publish-if-changed. Content identity is `CanonicalJSON.contentHash`,
/// stored as `content_sha256` (migration 0007) and indexed per type among live versions.
extension PostgresSchemaStore {
    public func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) throws
        -> SchemaVersion?
    {
        try pool.perform(.read) { connection in
            try connection.execute(Self.newestWithContent, [application.id, attributesType, PGBytea(contentHash)]).rows.first
                .map { row in try Self.version(row, application: application, attributesType: attributesType) }
        }
    }

    /// In one transaction: claim the idempotency key (if any), take the type's review lock and
    /// then its counter row, and only then read the newest live version, in a statement of its
    /// own so that under READ COMMITTED it sees every publish that committed before the locks
    /// were granted. A concurrent identical request waits on them and then finds this one's
    /// version. Finding one rolls everything back, so nothing is written; otherwise the
    /// publish is the ordinary one (`publishReviewedAndAudited`): same review, policy veto and
    /// audit event. The review lock comes first, in the order a reviewed publish takes both.
    public func publishUnlessNewestIdentical(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?, response: (Publication) throws -> PublishAnswer
    ) throws -> FindOrPublish {
        let contentHash = CanonicalJSON.contentHash(jsonSchema)
        do {
            return try pool.perform(.write, conflict: { Self.publishConflict($0, attributesType: attributesType, version: version) }) {
                connection in
                try connection.transaction { () throws -> FindOrPublish in
                    if let claim, let replayed = try Self.claim(claim, on: connection) {
                        guard case .replayed(let body) = replayed else { throw RegistryError.internal() }
                        return .replayed(body: body)
                    }
                    _ = try connection.execute(Self.serializeReviewedPublishes, [application.id, attributesType])
                    let created = try connection.execute(Self.lockCounter, [application.id, attributesType]).rows.first?.bool(0) ?? false
                    if !created, let newest = try connection.execute(Self.newestLive, [application.id, attributesType]).rows.first,
                        try newest.bytea(3) == contentHash
                    {
                        throw FoundExisting(schema: try Self.version(newest, application: application, attributesType: attributesType))
                    }
                    // A counter row this transaction created says the type has no version yet,
                    // and holds 1: the next free version is that 1, not one above it.
                    let effective: VersionRequest = (created && version == .nextFree) ? .explicit(1) : version
                    let (schema, body) = try Self.publishReviewedAndAudited(
                        application: application, attributesType: attributesType, version: effective, jsonSchema: jsonSchema,
                        by: actor, comparing: comparison, once: claim, response: response, on: connection)
                    return .published(schema, body: body)
                }
            }
        } catch let found as FoundExisting {
            return .existing(found.schema)
        }
    }

    /// Carries the version found out of the transaction, which rolls back on the way.
    private struct FoundExisting: Error {
        let schema: SchemaVersion
    }

    private static func version(_ row: PGRow, application: Application, attributesType: String) throws(PGError) -> SchemaVersion {
        SchemaVersion(
            applicationCode: application.code, attributesType: attributesType, version: try row.int32(0),
            jsonSchema: try row.string(1), created: try row.string(2))
    }

    static let newestWithContent = PGStatement(file: "store_newest_with_content")

    /// Creates or locks the type's counter row without changing it; true when it was created
    /// (`xmax = 0` marks a row this statement inserted rather than updated).
    static let lockCounter = PGStatement(file: "store_lock_counter")

    static let newestLive = PGStatement(file: "store_newest_live")
}
