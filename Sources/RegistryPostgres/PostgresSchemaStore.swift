import Registry

/// The registry's storage on PostgreSQL. Every read is one prepared statement; every change is
/// one transaction that also writes its audit event. Correctness under concurrent replicas
/// comes from the database's locks, not from this process.
public struct PostgresSchemaStore: SchemaStore {
    /// Exposed so the service can report pool stats and share it with admin and migrations.
    public let pool: ConnectionPool
    /// Seals the webhook signing secrets this store writes; nil stores them as issued.
    public let webhookSecretKey: WebhookSecretKey?

    /// Opens nothing: the pool connects on first use, so the service can start while the
    /// database is still coming up.
    public init(pool: ConnectionPool, webhookSecretKey: WebhookSecretKey? = nil) {
        self.pool = pool
        self.webhookSecretKey = webhookSecretKey
    }

    public func application(code: String) async throws -> Application? {
        try await pool.value(of: Self.applicationRead(code: code))
    }

    /// The application with this code, if any.
    static func applicationRead(code: String) -> StoreStatement<Application?> {
        StoreStatement(statement: applicationByCode, parameters: [code]) { result in
            try result.rows.first.map { try Application(row: $0) }
        }
    }

    /// The applications of an account, ordered by code.
    public func applications(accountID: Int64) async throws -> [Application] {
        try await pool.value(of: StoreStatement(statement: Self.applicationsOfAccount, parameters: [accountID]) {
            try $0.rows.map { try Application(row: $0) }
        })
    }

    /// The statement and parameters for a next-free or explicit publish: the publisher
    /// (`created_by_token_id`, `created_by`) after the text, then `force` (insert whatever the
    /// policy, for a caller that reviews before committing), the limit of earlier texts and
    /// the content identity (`CanonicalJSON.contentHash`), the labels and release notes, and the
    /// field paths (nil: left to the backfill).
    static func publishStatement(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata = VersionMetadata(), fieldPaths: [String]? = nil, force: Bool, limit: Int
    ) throws(RegistryError) -> (PGStatement, [(any PGParameter)?]) {
        // The content identity is computed here rather than by the insert trigger: a byte scan
        // is much cheaper than the database's regular expression.
        let contentHash = PGBytea(CanonicalJSON.contentHash(jsonSchema))
        switch version {
        case .nextFree:
            return (
                publishNextFree,
                [application.id, attributesType, jsonSchema, actor.tokenID, actor.createdBy, force, clamped(limit), contentHash]
                    + metadataParameters(metadata) + [fieldPaths.map(fieldPathsParameter)]
            )
        case .explicit(let number):
            guard number >= 1 else { throw .invalidArgument("version must be between 1 and 2147483647") }
            return (
                publishExplicit,
                [application.id, attributesType, number, jsonSchema, actor.tokenID, actor.createdBy, force, clamped(limit), contentHash]
                    + metadataParameters(metadata) + [fieldPaths.map(fieldPathsParameter)]
            )
        }
    }

    /// A unique violation on publish means the version exists (live or deleted): 409.
    static func publishConflict(_ error: PGError, attributesType: String, version: VersionRequest) -> RegistryError? {
        guard error.sqlState == .uniqueViolation else { return nil }
        switch version {
        case .nextFree: return .alreadyExists("attributesType \"\(attributesType)\": the next version already exists")
        case .explicit(let number): return .alreadyExists("attributesType \"\(attributesType)\" version \(number) already exists")
        }
    }

    public func schema(application: Application, attributesType: String, version: Int32) async throws -> SchemaVersion? {
        try await pool.value(of: Self.schemaRead(application: application, attributesType: attributesType, version: version))
    }

    /// One live version in whatever state, nil when it does not exist or was deleted. A standby
    /// may answer it (`StandbyReads`), except "none", which the primary confirms.
    static func schemaRead(application: Application, attributesType: String, version: Int32) -> StoreStatement<SchemaVersion?> {
        StoreStatement(
            statement: getVersion, parameters: [application.id, attributesType, version],
            standbyRead: StandbyRead(application: application.id) { $0 == nil }
        ) { result in
            try result.rows.first.map { row in
                try storedVersion(row, application: application, attributesType: attributesType, version: version)
            }
        }
    }

    public func list(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?, includingDisabled: Bool
    ) async throws -> [SchemaVersion] {
        try await pool.value(of: 
            Self.listRead(
                application: application, attributesType: attributesType, after: cursor, limit: limit, includingDisabled: includingDisabled))
    }

    /// Live versions in list order (type, then version descending), of one type or all, after a
    /// cursor or from the start, at most `limit` (nil: all), disabled ones only when asked for.
    /// A type's newest versions are this read with no cursor. A standby may answer it
    /// (`StandbyReads`), except an empty page, which the primary confirms.
    static func listRead(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?, includingDisabled: Bool
    ) -> StoreStatement<[SchemaVersion]> {
        let limit: Int? = limit.map { max(0, $0) }
        let statement: PGStatement
        let parameters: [(any PGParameter)?]
        switch (attributesType, cursor) {
        case (nil, nil):
            statement = listAll
            parameters = [application.id, limit, includingDisabled]
        case (nil, let cursor?):
            statement = listAllAfter
            parameters = [application.id, cursor.attributesType, cursor.version, limit, includingDisabled]
        case (let type?, nil):
            statement = listType
            parameters = [application.id, type, limit, includingDisabled]
        case (let type?, let cursor?):
            statement = listTypeAfter
            parameters = [application.id, type, cursor.attributesType, cursor.version, limit, includingDisabled]
        }
        return StoreStatement(
            statement: statement, parameters: parameters, standbyRead: StandbyRead(application: application.id) { $0.isEmpty }
        ) { result in
            try result.rows.map { row in
                let (metadata, warnings) = try versionMetadata(row, from: 5 + VersionState.columnCount)
                return SchemaVersion(
                    applicationCode: application.code, attributesType: try row.string(0), version: try row.int32(1),
                    jsonSchema: try row.string(2), created: try row.string(3), createdBy: try row.optionalString(4),
                    state: try VersionState(row: row, from: 5), metadata: metadata, warnings: warnings)
            }
        }
    }

    /// Deletes the version and records its `delete` event in one statement; no row (and no
    /// event) when it was unknown or already deleted.
    public func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) async throws -> Bool {
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .delete, applicationID: application.id,
            attributesType: attributesType, version: version)
        return try await pool.value(
            of: StoreStatement(
                statement: Self.deleteVersion, parameters: [application.id, attributesType, version] + event.parameters, retry: .write,
                feedsChanges: true
            ) { !$0.rows.isEmpty })
    }

    // MARK: - SQL

    static let applicationByCode = PGStatement(file: "store_application_by_code")
    static let applicationsOfAccount = PGStatement(file: "store_applications_of_account")

    /// Next free version in one statement. The upsert creates or locks the type's high-water row
    /// (a row lock exists even for a type's very first version, unlike SELECT … FOR UPDATE) and
    /// returns the number to use; at the ceiling its WHERE fails, no row comes back, nothing is
    /// inserted. Deleted versions keep their numbers because the counter never goes down. The
    /// same statement reads the policy (inserting only when it cannot refuse, or when $6 forces
    /// it) and what to compare with (the rows `basis` reads, at most $7 earlier texts); $8 is
    /// the content identity.
    static let publishNextFree = PGStatement(file: "store_publish_next_free")

    /// Explicit version: locks the same high-water row first (raising it when this version is
    /// above it), then inserts, so explicit and next-free publishes take locks in the same order
    /// and cannot deadlock. An existing row, live or deleted, fails with 23505 → 409. $7 and $8
    /// are the force flag and the limit, as $6 and $7 of next-free; $9 the content identity.
    static let publishExplicit = PGStatement(file: "store_publish_explicit")
    static let getVersion = PGStatement(file: "store_get_version")

    // List order is attributes_type ascending in byte order (the column is COLLATE "C"), then
    // version descending: the order of the partial index schema_versions_live_list. A NULL
    // limit means LIMIT ALL.
    static let listAll = PGStatement(file: "store_list_all")
    static let listAllAfter = PGStatement(file: "store_list_all_after")
    static let listType = PGStatement(file: "store_list_type")
    static let listTypeAfter = PGStatement(file: "store_list_type_after")

    /// Deleting leaves a tombstone (the row without its schema) so the number is never reused.
    static let deleteVersion = PGStatement(file: "store_delete_version")
}
