import Registry
@testable import RegistryPostgres
import Testing
import TestSupport

/// Search at scale: with thousands of types and versions each filter is answered by its index,
/// in the plan the service's sessions run (a generic plan, planned without the parameters'
/// values), right after a bulk load and before any vacuum has merged the GIN pending lists.
@Suite struct SearchIndexPlanTests {
    static let types = 2000
    static let versions = 5
    /// The tables search reads; none of them may be scanned whole.
    static let searchedTables = ["schema_version_counters", "type_metadata", "schema_versions", "version_fields"]

    /// One filter: the query, the index that must find its rows, and what it finds.
    struct Row: Sendable, CustomTestStringConvertible {
        let query: String
        let index: String
        let found: [String]
        let foundIn: String
        var testDescription: String { query }
    }

    static let rows: [Row] = [
        Row(query: "scale1234attr", index: "schema_version_counters_name_trgm", found: ["Scale1234Attributes"], foundIn: "name"),
        Row(query: "fl-1234-", index: "type_metadata_description_trgm", found: ["Scale1234Attributes"], foundIn: "description"),
        Row(query: "team-1234@", index: "type_metadata_owner_trgm", found: ["Scale1234Attributes"], foundIn: "owner"),
        Row(query: "owner:team-1234@", index: "type_metadata_owner_trgm", found: ["Scale1234Attributes"], foundIn: "owner"),
        Row(query: "label:team=squad1234", index: "type_metadata_labels", found: ["Scale1234Attributes"], foundIn: "label"),
        Row(query: "label:app_version=1234.3", index: "schema_versions_live_labels", found: ["Scale1234Attributes"], foundIn: "label"),
        Row(query: "field:seat1234_", index: "version_fields_path_trgm", found: ["Scale1234Attributes"], foundIn: "field"),
    ]

    /// One migrated database of its own (the plan depends on its statistics), seeded once in SQL
    /// like bench/run.sh's search scenario: every type with a description, an owner and a label,
    /// every version with a label and three field paths. ANALYZE only, as a vacuum would also
    /// merge the pending lists the load filled.
    static let seeded: Result<Fixture, any Error> = Result {
        let f = try Fixture(poolSize: 2)
        let id = f.application.id
        try f.pool.withConnection { connection in
            try connection.withoutTimeouts {
                try connection.simpleQuery("""
                    INSERT INTO schema_version_counters (application_id, attributes_type, last_version)
                    SELECT \(id), 'Scale' || n || 'Attributes', \(versions) FROM generate_series(1, \(types)) AS n
                    """)
                try connection.simpleQuery("""
                    INSERT INTO schema_versions (application_id, attributes_type, version, json_schema, fields_indexed, labels)
                    SELECT \(id), 'Scale' || n || 'Attributes', v, '{"type":"object"}', true, jsonb_build_object('app_version', n || '.' || v)
                    FROM generate_series(1, \(types)) AS n, generate_series(1, \(versions)) AS v
                    """)
                try connection.simpleQuery("""
                    INSERT INTO version_fields (application_id, attributes_type, version, path)
                    SELECT \(id), 'Scale' || n || 'Attributes', v, 'content-state.' || f || n || '_' || v
                    FROM generate_series(1, \(types)) AS n, generate_series(1, \(versions)) AS v,
                         unnest(ARRAY['seat', 'gate', 'legs[].terminal']) AS f
                    """)
                try connection.simpleQuery("""
                    INSERT INTO type_metadata (application_id, attributes_type, description, owner, labels)
                    SELECT \(id), 'Scale' || n || 'Attributes', 'Boards flight FL-' || n || '-X at its gate',
                           'team-' || n || '@example.com', jsonb_build_object('team', 'squad' || n)
                    FROM generate_series(1, \(types)) AS n
                    """)
                for table in searchedTables { try connection.simpleQuery("ANALYZE \(table)") }
            }
        }
        return f
    }

    @Test(arguments: rows) func eachFilterIsAnsweredByItsIndexAtScale(_ row: Row) async throws {
        let f = try Self.seeded.get()
        let query = try SearchQuery(parsing: row.query)
        let found = try await f.store.search(application: f.application, query: query, after: nil, limit: 101)
        #expect(found.map(\.attributesType) == row.found)
        #expect(found.first?.matches.first?.foundIn == row.foundIn)

        let statement = PostgresSchemaStore.searchRead(application: f.application, query: query, after: nil, limit: 101)
        let plan = try Self.executedPlan(of: statement.statement, statement.parameters, in: f.pool)
        let nodes = Self.nodes(of: plan)
        let scanned = nodes.filter { $0["Node Type"]?.stringValue == "Seq Scan" }.compactMap { $0["Relation Name"]?.stringValue }
        #expect(scanned.filter { Self.searchedTables.contains($0) }.isEmpty, "sequential scans of \(scanned)")
        // The filter's index ran and found its rows: the hits come from the index, not a filter.
        let probes = nodes.filter { $0["Index Name"]?.stringValue == row.index }
        #expect(probes.contains { ($0["Actual Loops"]?.integerLexemeValue ?? 0) > 0 && ($0["Actual Rows"]?.integerLexemeValue ?? 0) > 0 },
                "\(row.index) in \(probes)")
    }

    @Test func theSeedIsAtScale() throws {
        let f = try Self.seeded.get()
        let counts = try f.pool.withConnection { connection in
            try Self.searchedTables.map { table in
                try #require(try connection.simpleQuery("SELECT count(*) FROM \(table)").rows.first?.int64(0))
            }
        }
        #expect(counts == [Int64(Self.types), Int64(Self.types), Int64(Self.types * Self.versions), Int64(Self.types * Self.versions * 3)])
        #expect(Self.rows.count == 7, "every filter: a word in a name, description and owner; owner:, label: on a type and a version, field:")
    }

    /// `EXPLAIN (ANALYZE, FORMAT JSON)` of `statement` as a session of `pool` runs it: prepared,
    /// then executed with the parameters, so it gets the plan cache's generic plan.
    static func executedPlan(of statement: PGStatement, _ parameters: [(any PGParameter)?], in pool: ConnectionPool) throws -> JSONValue {
        try pool.withConnection { connection in
            #expect(try connection.simpleQuery("SHOW plan_cache_mode").rows.first?.string(0) == PGConnection.planCacheMode)
            try connection.simpleQuery("PREPARE search_plan AS \(statement.sql)")
            defer { _ = try? connection.simpleQuery("DEALLOCATE search_plan") }
            let arguments = parameters.map { $0.map { literal($0.pgText) } ?? "NULL" }
            let explained = try connection.simpleQuery(
                "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) EXECUTE search_plan(\(arguments.joined(separator: ", ")))")
            let text = try #require(try explained.rows.first?.string(0))
            return try #require(try JSONParser.parse(text).arrayValue?.first?["Plan"])
        }
    }

    /// `text` as an SQL string literal (quotes doubled, compared as scalars), which PostgreSQL
    /// reads as a value of the parameter's type.
    static func literal(_ text: String) -> String {
        var quoted = String.UnicodeScalarView()
        quoted.append("'")
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted.append(scalar) }
            quoted.append(scalar)
        }
        quoted.append("'")
        return String(quoted)
    }

    /// Every node of a plan, subplans (CTEs) included.
    static func nodes(of plan: JSONValue) -> [JSONValue] {
        [plan] + (plan["Plans"]?.arrayValue ?? []).flatMap(nodes(of:))
    }
}
