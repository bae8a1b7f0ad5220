import Registry

/// The registry's storage on PostgreSQL. Every read is one prepared statement; every change is
/// one transaction that also writes its audit event. Correctness under concurrent replicas
/// comes from the database's locks, not from this process.
public struct PostgresSchemaStore: SchemaStore {
    /// Exposed so the service can report pool stats and share it with admin and migrations.
    public let pool: ConnectionPool

    /// Opens nothing: the pool connects on first use, so the service can start while the
    /// database is still coming up.
    public init(pool: ConnectionPool) {
        self.pool = pool
    }

    public func application(code: String) throws -> Application? {
        try pool.perform(.read) { connection in
            try connection.execute(Self.applicationByCode, [code]).rows.first.map { try Application(row: $0) }
        }
    }

    public func applications(accountID: Int64) throws -> [Application] {
        try pool.perform(.read) { connection in
            try connection.execute(Self.applicationsOfAccount, [accountID]).rows.map { try Application(row: $0) }
        }
    }

    /// The statement and parameters for a next-free or explicit publish: the publisher
    /// (`created_by_token_id`, `created_by`) after the text, then `force` (insert whatever the
    /// policy, for a caller that reviews before committing), the limit of earlier texts and
    /// the content identity (`CanonicalJSON.contentHash`).
    static func publishStatement(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        force: Bool, limit: Int
    ) throws(RegistryError) -> (PGStatement, [(any PGParameter)?]) {
        // The content identity is computed here rather than by the insert trigger: a byte scan
        // is much cheaper than the database's regular expression.
        let contentHash = PGBytea(CanonicalJSON.contentHash(jsonSchema))
        switch version {
        case .nextFree:
            return (
                publishNextFree,
                [application.id, attributesType, jsonSchema, actor.tokenID, actor.createdBy, force, clamped(limit), contentHash]
            )
        case .explicit(let number):
            guard number >= 1 else { throw .invalidArgument("version must be between 1 and 2147483647") }
            return (
                publishExplicit,
                [application.id, attributesType, number, jsonSchema, actor.tokenID, actor.createdBy, force, clamped(limit), contentHash]
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

    public func schema(application: Application, attributesType: String, version: Int32) throws -> SchemaVersion? {
        try pool.perform(.read) { connection in
            try connection.execute(Self.getVersion, [application.id, attributesType, version]).rows.first.map { row in
                SchemaVersion(
                    applicationCode: application.code, attributesType: attributesType, version: version,
                    jsonSchema: try row.string(0), created: try row.string(1), contentHash: try row.bytea(2),
                    createdBy: try row.optionalString(3))
            }
        }
    }

    public func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) throws
        -> [SchemaVersion]
    {
        let limit: Int? = limit.map { max(0, $0) }
        let statement: PGStatement
        let parameters: [(any PGParameter)?]
        switch (attributesType, cursor) {
        case (nil, nil):
            statement = Self.listAll
            parameters = [application.id, limit]
        case (nil, let cursor?):
            statement = Self.listAllAfter
            parameters = [application.id, cursor.attributesType, cursor.version, limit]
        case (let type?, nil):
            statement = Self.listType
            parameters = [application.id, type, limit]
        case (let type?, let cursor?):
            statement = Self.listTypeAfter
            parameters = [application.id, type, cursor.attributesType, cursor.version, limit]
        }
        return try pool.perform(.read) { connection in
            try connection.execute(statement, parameters).rows.map { row in
                SchemaVersion(
                    applicationCode: application.code, attributesType: try row.string(0), version: try row.int32(1),
                    jsonSchema: try row.string(2), created: try row.string(3), createdBy: try row.optionalString(4))
            }
        }
    }

    public func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) throws -> Bool {
        try pool.perform(.write) { connection in
            try connection.transaction {
                guard try !connection.execute(Self.deleteVersion, [application.id, attributesType, version]).rows.isEmpty else {
                    return false
                }
                try AuditLog.record(
                    AuditRecord(
                        accountID: application.accountID, actor: actor, action: .delete, applicationID: application.id,
                        attributesType: attributesType, version: version),
                    on: connection)
                return true
            }
        }
    }

    // MARK: - SQL

    static let applicationByCode = PGStatement(
        "store_application_by_code",
        "SELECT \(SQLText.applicationColumns) FROM applications WHERE code = $1::text")

    static let applicationsOfAccount = PGStatement(
        "store_applications_of_account",
        "SELECT \(SQLText.applicationColumns) FROM applications WHERE account_id = $1::bigint ORDER BY code")

    /// Next free version in one statement. The upsert creates or locks the type's high-water row
    /// (a row lock exists even for a type's very first version, unlike SELECT … FOR UPDATE) and
    /// returns the number to use; at the ceiling its WHERE fails, no row comes back, nothing is
    /// inserted. Deleted versions keep their numbers because the counter never goes down. The
    /// same statement reads the policy (inserting only when it cannot refuse, or when $6 forces
    /// it) and what to compare with (`publishedAndEarlier`, at most $7 earlier texts); $8 is
    /// the content identity.
    static let publishNextFree = PGStatement(
        "store_publish_next_free",
        """
        WITH RECURSIVE \(effectivePolicy), counter AS (
            INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
            SELECT $1::bigint, $2::text, 1 FROM policy WHERE \(mayInsert(force: "$6::boolean"))
            ON CONFLICT (application_id, attributes_type)
            DO UPDATE SET last_version = c.last_version + 1
            WHERE c.last_version < 2147483647
            RETURNING last_version
        ), inserted AS (
            INSERT INTO schema_versions (
                application_id, attributes_type, version, json_schema, created_by_token_id, created_by, content_sha256)
            SELECT $1::bigint, $2::text, last_version, $3::text, $4::bigint, $5::text, $8::bytea FROM counter
            RETURNING version, created, schema_sha256
        ), \(distinctHashes), \(basisSources(
            below: "(SELECT version FROM inserted)", limit: "$7::integer", excluding: "(SELECT schema_sha256 FROM inserted)"))
        \(publishedAndEarlier)
        """)

    /// Explicit version: locks the same high-water row first (raising it when this version is
    /// above it), then inserts, so explicit and next-free publishes take locks in the same order
    /// and cannot deadlock. An existing row, live or deleted, fails with 23505 → 409. $7 and $8
    /// are the force flag and the limit, as $6 and $7 of next-free; $9 the content identity.
    static let publishExplicit = PGStatement(
        "store_publish_explicit",
        """
        WITH RECURSIVE \(effectivePolicy), counter AS (
            INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
            SELECT $1::bigint, $2::text, $3::integer FROM policy WHERE \(mayInsert(force: "$7::boolean"))
            ON CONFLICT (application_id, attributes_type)
            DO UPDATE SET last_version = GREATEST(c.last_version, EXCLUDED.last_version)
            RETURNING last_version
        ), inserted AS (
            INSERT INTO schema_versions (
                application_id, attributes_type, version, json_schema, created_by_token_id, created_by, content_sha256)
            SELECT $1::bigint, $2::text, $3::integer, $4::text, $5::bigint, $6::text, $9::bytea FROM counter
            RETURNING version, created, schema_sha256
        ), \(distinctHashes), \(basisSources(
            below: "(SELECT version FROM inserted)", limit: "$8::integer", excluding: "(SELECT schema_sha256 FROM inserted)"))
        \(publishedAndEarlier)
        """)

    static let getVersion = PGStatement(
        "store_get_version",
        """
        SELECT json_schema, \(SQLText.utc("created")), schema_sha256, created_by
        FROM schema_versions
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
          AND deleted_at IS NULL
        """)

    private static let listColumns = "attributes_type, version, json_schema, \(SQLText.utc("created")), created_by"

    // List order is attributes_type ascending in byte order (the column is COLLATE "C"), then
    // version descending: the order of the partial index schema_versions_live_list. A NULL
    // limit means LIMIT ALL.
    static let listAll = PGStatement(
        "store_list_all",
        """
        SELECT \(listColumns) FROM schema_versions
        WHERE application_id = $1::bigint AND deleted_at IS NULL
        ORDER BY attributes_type, version DESC
        LIMIT $2::bigint
        """)

    static let listAllAfter = PGStatement(
        "store_list_all_after",
        """
        SELECT \(listColumns) FROM schema_versions
        WHERE application_id = $1::bigint AND deleted_at IS NULL
          AND (attributes_type > $2::text OR (attributes_type = $2::text AND version < $3::integer))
        ORDER BY attributes_type, version DESC
        LIMIT $4::bigint
        """)

    static let listType = PGStatement(
        "store_list_type",
        """
        SELECT \(listColumns) FROM schema_versions
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL
        ORDER BY attributes_type, version DESC
        LIMIT $3::bigint
        """)

    static let listTypeAfter = PGStatement(
        "store_list_type_after",
        """
        SELECT \(listColumns) FROM schema_versions
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL
          AND (attributes_type > $3::text OR (attributes_type = $3::text AND version < $4::integer))
        ORDER BY attributes_type, version DESC
        LIMIT $5::bigint
        """)

    /// Deleting leaves a tombstone (the row without its schema) so the number is never reused.
    static let deleteVersion = PGStatement(
        "store_delete_version",
        """
        UPDATE schema_versions SET deleted_at = now(), json_schema = NULL
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
          AND deleted_at IS NULL
        RETURNING version
        """)
}
