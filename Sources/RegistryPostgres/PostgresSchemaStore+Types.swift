import Registry

/// The type index: one row per live type, read from the counters table (one row per type ever
/// published) in name order, so a page costs a range scan of its primary key plus two index
/// descents per type, whatever the number of types.
extension PostgresSchemaStore {
    public func types(application: Application, filter: TypeFilter, limit: Int?) async throws -> [TypeSummary] {
        try await pool.value(of: Self.typesRead(application: application, filter: filter, limit: limit))
    }

    /// One page of the index: types after `filter.after` with `filter.prefix`, at most `limit`
    /// (nil: all). A standby may answer it (`StandbyReads`), except an empty page, which the
    /// primary confirms.
    static func typesRead(application: Application, filter: TypeFilter, limit: Int?) -> StoreStatement<[TypeSummary]> {
        let upperBound = filter.prefix.flatMap(TypeFilter.upperBound(ofPrefix:))
        let parameters: [(any PGParameter)?] = [
            application.id, filter.after, filter.prefix, upperBound, limit.map { max(0, $0) },
        ]
        return StoreStatement(
            statement: typeIndex, parameters: parameters, standbyRead: StandbyRead(application: application.id) { $0.isEmpty }
        ) { result in
            try result.rows.map { row in
                TypeSummary(
                    attributesType: try row.string(0), liveVersions: try row.int64(1), newestVersion: try row.int32(2),
                    newestCreated: try row.string(3),
                    policy: TypeSummary.Policy(
                        mode: try row.string(4), enforce: try row.string(5), oldestSupportedVersion: try row.int32(6)),
                    latestPin: try row.optionalString(7).map { _ throws(PGError) in try row.int32(7) },
                    deprecatedVersions: try row.int64(8), disabledVersions: try row.int64(9),
                    metadata: TypeMetadata(
                        description: try row.optionalString(10) ?? "", owner: try row.optionalString(11) ?? "",
                        labels: try jsonColumn(row, 12).objectValue.map(Labels.sorted) ?? JSONObject()))
            }
        }
    }

    /// $2 the last name of the previous page, $3 the prefix and $4 the first name above every
    /// name with that prefix (both compared as bytes: the column is COLLATE "C"); NULL means no
    /// bound. Types whose versions are all deleted have no newest live version and are left
    /// out. The policy is the type's own row, else the application's ('' row), else the
    /// built-in default; each row has every column, so COALESCE picks whole policies.
    static let typeIndex = PGStatement(file: "store_type_index")
}
