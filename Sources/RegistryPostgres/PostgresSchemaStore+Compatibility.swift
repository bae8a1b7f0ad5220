import Registry

extension PostgresSchemaStore {
    /// Each distinct live schema text of a type once, with its oldest live version, read
    /// through the content-hash index (migration 0002).
    public func distinctLiveSchemas(application: Application, attributesType: String) throws -> [SchemaVersion] {
        try pool.perform(.read) { connection in
            try connection.execute(Self.distinctLive, [application.id, attributesType]).rows.map { row in
                SchemaVersion(
                    applicationCode: application.code, attributesType: attributesType, version: try row.int32(0),
                    jsonSchema: try row.string(1), created: try row.string(2))
            }
        }
    }

    static let distinctLive = PGStatement(
        "distinct_live_schemas",
        """
        SELECT version, json_schema, \(SQLText.utc("created")) FROM (
            SELECT DISTINCT ON (schema_sha256) version, json_schema, created
            FROM schema_versions
            WHERE application_id = $1 AND attributes_type = $2 AND deleted_at IS NULL
            ORDER BY schema_sha256, version
        ) AS distinct_schemas
        ORDER BY version
        """)
}
