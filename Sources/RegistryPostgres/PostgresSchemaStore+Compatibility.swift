import Registry

/// The earlier schema texts a new version is compared with: each distinct live text of the
/// type once, at its oldest live version.
extension PostgresSchemaStore {
    public func distinctLiveSchemas(application: Application, attributesType: String) throws -> [EarlierSchema] {
        try pool.perform(.read) { connection in
            try connection.execute(Self.distinctLive, [application.id, attributesType]).rows.map { row in
                try EarlierSchema(row: row, version: 0, hash: 1, text: 2)
            }
        }
    }

    static let distinctLive = PGStatement(
        "distinct_live_schemas",
        """
        WITH RECURSIVE \(distinctHashes)
        SELECT oldest.version, hashes.schema_sha256, oldest.json_schema
        FROM distinct_hashes AS hashes CROSS JOIN LATERAL (\(oldestLive(below: nil))) AS oldest
        ORDER BY oldest.version
        """)

    /// The CTE `distinct_hashes`: every distinct `schema_sha256` among the live versions of
    /// type ($1, $2), by a loose index scan of `schema_versions_live_content` (migration 0002):
    /// each step descends the index to the first hash above the previous one. That costs one
    /// descent per distinct text, where `DISTINCT ON` read every live version (tens of
    /// milliseconds for a type published tens of thousands of times with one text). The last
    /// row is NULL. Needs `WITH RECURSIVE`.
    static let distinctHashes = """
        distinct_hashes (schema_sha256) AS (
            (SELECT schema_sha256 FROM schema_versions
             WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL
             ORDER BY schema_sha256 LIMIT 1)
            UNION ALL
            SELECT (SELECT next.schema_sha256 FROM schema_versions AS next
                    WHERE next.application_id = $1::bigint AND next.attributes_type = $2::text
                      AND next.deleted_at IS NULL AND next.schema_sha256 > previous.schema_sha256
                    ORDER BY next.schema_sha256 LIMIT 1)
            FROM distinct_hashes AS previous
            WHERE previous.schema_sha256 IS NOT NULL
        )
        """

    /// A LATERAL subquery: the oldest live version (and its text) of the hash in
    /// `hashes.schema_sha256`, one index descent; with `bound`, only versions below it.
    static func oldestLive(below bound: String?) -> String {
        """
        SELECT version, json_schema FROM schema_versions
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL
          AND schema_sha256 = hashes.schema_sha256\(bound.map { " AND version < \($0)" } ?? "")
        ORDER BY version LIMIT 1
        """
    }

    /// The result of both publish statements, which insert through a CTE `inserted` returning
    /// `version, created, schema_sha256`: first the new version (the only row with `created`),
    /// then each distinct earlier live text other than the new one. The reads run in the
    /// statement's snapshot, which never includes the row the statement inserts.
    static let publishedAndEarlier = """
        SELECT version, \(SQLText.utc("created")), NULL::bytea, NULL::text FROM inserted
        UNION ALL
        SELECT oldest.version, NULL, hashes.schema_sha256, oldest.json_schema
        FROM distinct_hashes AS hashes
            CROSS JOIN LATERAL (\(oldestLive(below: "(SELECT version FROM inserted)"))) AS oldest
        WHERE hashes.schema_sha256 <> (SELECT schema_sha256 FROM inserted)
        """

    /// Reads the rows of `publishedAndEarlier`; no new version means the counter is at the
    /// ceiling (only next-free can return none).
    static func publication(
        _ rows: [PGRow], application: Application, attributesType: String, jsonSchema: String, createdBy: String?
    ) throws -> Publication {
        var schema: SchemaVersion?
        var earlier: [EarlierSchema] = []
        for row in rows {
            if let created = try row.optionalString(1) {
                schema = SchemaVersion(
                    applicationCode: application.code, attributesType: attributesType, version: try row.int32(0),
                    jsonSchema: jsonSchema, created: created, createdBy: createdBy)
            } else {
                earlier.append(try EarlierSchema(row: row, version: 0, hash: 2, text: 3))
            }
        }
        guard let schema else {
            throw RegistryError.invalidArgument("no version is free for attributesType \"\(attributesType)\"")
        }
        return Publication(schema: schema, earlier: earlier.sorted { $0.version < $1.version })
    }
}

extension EarlierSchema {
    init(row: PGRow, version: Int, hash: Int, text: Int) throws(PGError) {
        self.init(version: try row.int32(version), contentHash: try row.bytea(hash), jsonSchema: try row.string(text))
    }
}
