import Registry

/// Lookup by content and publish-if-changed. Content identity is `CanonicalJSON.contentHash`,
/// stored as `content_sha256` (migration 0007) and indexed per type among live versions.
extension PostgresSchemaStore {
    /// The newest live version of the type whose `content_sha256` is `contentHash` and that is
    /// not disabled, if any.
    public func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) async throws
        -> SchemaVersion?
    {
        let parameters: [(any PGParameter)?] = [application.id, attributesType, PGBytea(contentHash)]
        return try await pool.value(of: StoreStatement(statement: Self.newestWithContent, parameters: parameters) { result in
            try result.rows.first.map { row in
                try Self.version(
                    row, application: application, attributesType: attributesType, state: try VersionState(row: row, from: 3),
                    metadataFrom: 3 + VersionState.columnCount)
            }
        })
    }

    /// Takes the type's review lock and then its counter row, and only then reads the newest
    /// live version, in a statement of its own so that under READ COMMITTED it sees every
    /// publish that committed before the locks were granted. The review lock comes first, in
    /// the order a reviewed publish takes both. A counter row created here means the type has
    /// no version yet; its newest is not read.
    static func lockType(application: Application, attributesType: String, on session: any SQLSession) async throws -> LockedType {
        _ = try await session.execute(serializeReviewedPublishes, [application.id, attributesType])
        let created = try await session.execute(lockCounter, [application.id, attributesType]).rows.first?.bool(0) ?? false
        guard !created, let newest = try await session.execute(newestLive, [application.id, attributesType]).rows.first else {
            return LockedType(isNew: created, newest: nil)
        }
        return LockedType(
            isNew: false,
            newest: (try version(newest, application: application, attributesType: attributesType, metadataFrom: 4), try newest.bytea(3)))
    }

    /// Version, text and creation time, and the three metadata columns from `metadataFrom`.
    private static func version(
        _ row: PGRow, application: Application, attributesType: String, state: VersionState = .active, metadataFrom column: Int
    ) throws -> SchemaVersion {
        let (metadata, warnings) = try versionMetadata(row, from: column)
        return SchemaVersion(
            applicationCode: application.code, attributesType: attributesType, version: try row.int32(0),
            jsonSchema: try row.string(1), created: try row.string(2), state: state, metadata: metadata, warnings: warnings)
    }

    static let newestWithContent = PGStatement(file: "store_newest_with_content")

    /// Creates or locks the type's counter row without changing it; true when it was created
    /// (`xmax = 0` marks a row this statement inserted rather than updated).
    static let lockCounter = PGStatement(file: "store_lock_counter")

    static let newestLive = PGStatement(file: "store_newest_live")
}
