import Registry

/// Search across an application: one statement whose branches are index probes, one per term
/// (trigram indexes for substrings, jsonb containment for labels), grouped by type.
extension PostgresSchemaStore {
    public func search(application: Application, query: SearchQuery, after: String?, limit: Int) async throws -> [SearchResult] {
        try await pool.value(of: Self.searchRead(application: application, query: query, after: after, limit: limit))
    }

    /// A standby may answer it (`StandbyReads`), except no match, which the primary confirms.
    /// What the describer indexes later (`describeVersion`) commits without a change event: a
    /// standby may lack a description indexed moments before, as the primary did then.
    static func searchRead(application: Application, query: SearchQuery, after: String?, limit: Int) -> StoreStatement<[SearchResult]> {
        let parameters: [(any PGParameter)?] = [
            application.id, JSONWriter.string(.array(query.terms.map(termJSON))), after, max(0, limit), SearchResult.maxMatches,
        ]
        return StoreStatement(
            statement: searchTypes, parameters: parameters, standbyRead: StandbyRead(application: application.id) { $0.isEmpty }
        ) { result in
            var results: [SearchResult] = []
            var current: (name: String, matches: [SearchResult.Match])?
            for row in result.rows {
                let name = try row.string(0)
                let match = SearchResult.Match(
                    foundIn: try row.string(1), text: try row.string(2), version: try row.optionalString(3).flatMap { Int32($0) },
                    path: try row.optionalString(4))
                if let open = current, open.name.hasSameBytes(as: name) {
                    current?.matches.append(match)
                } else {
                    if let open = current { results.append(SearchResult(attributesType: open.name, matches: open.matches)) }
                    current = (name, [match])
                }
            }
            if let open = current { results.append(SearchResult(attributesType: open.name, matches: open.matches)) }
            return results
        }
    }

    /// A term as the statement reads it: a substring becomes an ILIKE pattern, a label the
    /// object its containment test looks for.
    static func termJSON(_ term: SearchQuery.Term) -> JSONValue {
        switch term {
        case .word(let text): ["kind": "word", "pattern": .string(likePattern(containing: text))]
        case .owner(let text): ["kind": "owner", "pattern": .string(likePattern(containing: text))]
        case .field(let text): ["kind": "field", "pattern": .string(likePattern(containing: text))]
        case .label(let key, let value): ["kind": "label", "label": .object([key: .string(value)]), "text": .string("\(key)=\(value)")]
        }
    }

    /// `%text%` with LIKE's wildcards and its escape character (backslash) escaped, so the text
    /// matches only itself.
    static func likePattern(containing text: String) -> String {
        var pattern = String.UnicodeScalarView()
        pattern.append("%")
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { pattern.append("\\") }
            pattern.append(scalar)
        }
        pattern.append("%")
        return String(pattern)
    }

    static let searchTypes = PGStatement(file: "search_types")
}

/// Stores the field paths of versions published before paths were stored, a batch at a time,
/// from the same form descriptors the API serves. Run by the service at startup, in the
/// background; search finds an older version by field once its batch is done. Any number of
/// replicas may run it at once: a path stored twice is stored once.
public struct FieldPathBackfill: Sendable {
    public let pool: ConnectionPool
    public static let batchSize = 200

    public init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// Indexes one batch; returns how many versions it indexed (0: none is left).
    public func runBatch() throws -> Int {
        let rows = try pool.run(
            StoreStatement(statement: Self.unindexedVersions, parameters: [Self.batchSize]) { result in
                try result.rows.map { row in (try row.int64(0), try row.string(1), try row.int32(2), try row.string(3)) }
            })
        for (applicationID, attributesType, version, text) in rows {
            // A stored text that no longer passes the shape rules has no form: it is marked done
            // with no paths, as a publish of it would have had none to store.
            let paths: [String]
            do {
                paths = FormBuilder.form(for: try SchemaRules.readStored(text)).fieldPaths
            } catch {
                paths = []
            }
            let parameters: [(any PGParameter)?] = [
                applicationID, attributesType, version, PostgresSchemaStore.fieldPathsParameter(paths),
            ]
            _ = try pool.run(StoreStatement(statement: PostgresSchemaStore.describeVersion, parameters: parameters, retry: .write) { _ in () })
        }
        return rows.count
    }

    /// Indexes every version still to index; returns how many it indexed.
    public func run() throws -> Int {
        var total = 0
        while true {
            let done = try runBatch()
            total += done
            if done < Self.batchSize { return total }
        }
    }

    static let unindexedVersions = PGStatement(file: "meta_unindexed_versions")
}
