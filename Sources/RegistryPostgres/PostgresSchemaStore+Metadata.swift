import Registry

/// Metadata: a type's description, owner, labels and links; a version's labels and release
/// notes; the warnings and field paths its publish stored. Each change is one statement with its
/// `metadata_change` audit event; the feed event comes from a trigger in the same transaction.
extension PostgresSchemaStore {
    /// A live type's metadata (empty when never set); nil when the type has no live version.
    public func typeMetadata(application: Application, attributesType: String) async throws -> TypeMetadata? {
        try await pool.value(of: StoreStatement(statement: Self.readTypeMetadata, parameters: [application.id, attributesType]) {
            try $0.rows.first.map { try Self.typeMetadata($0, from: 0) }
        })
    }

    /// Replaces the metadata with its audit event (the new metadata in its details); nil (and no
    /// event) when the type has no live version.
    public func setTypeMetadata(application: Application, attributesType: String, to metadata: TypeMetadata, by actor: AuditActor)
        async throws -> TypeMetadata?
    {
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .metadataChange, applicationID: application.id,
            attributesType: attributesType, details: ["metadata": .object(metadata.jsonObject)])
        let parameters: [(any PGParameter)?] = [
            application.id, attributesType, metadata.description, metadata.owner, JSONWriter.string(.object(metadata.labels)),
            JSONWriter.string(metadata.linksJSON),
        ]
        return try await pool.value(
            of: StoreStatement(statement: Self.writeTypeMetadata, parameters: parameters + event.parameters, retry: .write, feedsChanges: true) {
                try $0.rows.first.map { try Self.typeMetadata($0, from: 0) }
            })
    }

    /// Replaces a live version's labels and release notes with its audit event; the version as
    /// now stored, or nil (and no event) when it is unknown or deleted.
    public func setVersionMetadata(
        application: Application, attributesType: String, version: Int32, to metadata: VersionMetadata, by actor: AuditActor
    ) async throws -> SchemaVersion? {
        var details: JSONObject = ["labels": .object(metadata.labels)]
        if !metadata.releaseNotes.isEmpty { details["release_notes"] = .string(metadata.releaseNotes) }
        let event = AuditRecord(
            accountID: application.accountID, actor: actor, action: .metadataChange, applicationID: application.id,
            attributesType: attributesType, version: version, details: details)
        let parameters: [(any PGParameter)?] = [application.id, attributesType, version] + Self.metadataParameters(metadata)
        return try await pool.value(
            of: StoreStatement(statement: Self.writeVersionMetadata, parameters: parameters + event.parameters, retry: .write, feedsChanges: true) {
                try $0.rows.first.map { try Self.storedVersion($0, application: application, attributesType: attributesType, version: version) }
            })
    }

    /// A row of `store_get_version` (or a statement with its columns) as the version it reads.
    static func storedVersion(_ row: PGRow, application: Application, attributesType: String, version: Int32) throws -> SchemaVersion {
        let (metadata, warnings) = try versionMetadata(row, from: 4 + VersionState.columnCount)
        return SchemaVersion(
            applicationCode: application.code, attributesType: attributesType, version: version, jsonSchema: try row.string(0),
            created: try row.string(1), contentHash: try row.bytea(2), createdBy: try row.optionalString(3),
            state: try VersionState(row: row, from: 4), metadata: metadata, warnings: warnings)
    }

    /// The `$n` values of a version's labels and release notes, as the statements that write
    /// them take them.
    static func metadataParameters(_ metadata: VersionMetadata) -> [(any PGParameter)?] {
        [JSONWriter.string(.object(metadata.labels)), metadata.releaseNotes]
    }

    /// Field paths as the statements that write them take them: a JSON array of strings.
    static func fieldPathsParameter(_ fieldPaths: [String]) -> String {
        JSONWriter.string(.array(fieldPaths.map(JSONValue.string)))
    }

    /// Three columns from `column`: labels (jsonb as text), release notes, warnings (jsonb as text).
    static func versionMetadata(_ row: PGRow, from column: Int) throws -> (VersionMetadata, [JSONValue]) {
        let labels = try jsonColumn(row, column).objectValue.map(Labels.sorted) ?? JSONObject()
        let warnings = try jsonColumn(row, column + 2).arrayValue ?? []
        return (VersionMetadata(labels: labels, releaseNotes: try row.optionalString(column + 1) ?? ""), warnings)
    }

    /// Five columns from `column`: description, owner, labels, links (jsonb as text), updated;
    /// all NULL for a type whose metadata was never set.
    static func typeMetadata(_ row: PGRow, from column: Int) throws -> TypeMetadata {
        let links = try jsonColumn(row, column + 3).arrayValue ?? []
        return TypeMetadata(
            description: try row.optionalString(column) ?? "", owner: try row.optionalString(column + 1) ?? "",
            labels: try jsonColumn(row, column + 2).objectValue.map(Labels.sorted) ?? JSONObject(),
            links: links.compactMap { link in
                guard let name = link["name"]?.stringValue, let url = link["url"]?.stringValue else { return nil }
                return TypeMetadata.Link(name: name, url: url)
            },
            updated: try row.optionalString(column + 4))
    }

    /// A jsonb column read as text and parsed; NULL and the empty containers cost no parse.
    static func jsonColumn(_ row: PGRow, _ column: Int) throws -> JSONValue {
        guard let text = try row.optionalString(column) else { return .null }
        if text == "{}" { return .object(JSONObject()) }
        if text == "[]" { return .array([]) }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw RegistryError.internal("a stored metadata column is not JSON")
        }
    }

    static let readTypeMetadata = PGStatement(file: "meta_type_read")
    static let writeTypeMetadata = PGStatement(file: "meta_type_write")
    static let writeVersionMetadata = PGStatement(file: "meta_version_write")
    static let describeVersion = PGStatement(file: "meta_version_describe")
    static let recordVersionWarnings = PGStatement(file: "meta_version_warnings")
}
