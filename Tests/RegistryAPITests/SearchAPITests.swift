import Registry
import RegistryAPI
@testable import RegistryPostgres
import Testing
import TestSupport

/// `GET /api/search` against PostgreSQL: each kind of term, AND of terms, byte order, paging,
/// what matched and where, the refusals, and a plan that uses the trigram index at scale.
@Suite struct SearchAPITests {
    static func schema(_ field: String) -> String {
        #"{"type":"object","properties":{"\#(field)":{"type":"string"},"legs":{"type":"array","items":{"type":"object","properties":{"gate":{"type":"string"}}}}},"attributes":{"properties":{"flightNumber":{"type":"string"}}}}"#
    }

    static func search(_ tenant: Tenant, _ query: String, extra: String = "") throws -> RawHTTPResponse {
        let encoded = query.addingPercentEncodingForQuery()
        return try tenant.request("GET", "/api/search?application=\(tenant.code)&q=\(encoded)\(extra)")
    }

    static func names(_ response: RawHTTPResponse) throws -> [String] {
        try (response.json()["results"]?.arrayValue ?? []).compactMap { $0["attributes_type"]?.stringValue }
    }

    @Test func eachFilterFindsWhatItNamesAndSaysWhere() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        #expect(try owner.publish("FlightStatus", Self.schema("terminal")).status == 200)
        #expect(try owner.publish("FlightStatus", Self.schema("boarding")).status == 200)
        #expect(try owner.publish("TrainStatus", Self.schema("platform")).status == 200)
        #expect(try owner.publish("Delivery", Self.schema("courier")).status == 200)
        #expect(try MetadataAPITests.put(owner, "Delivery", ["description": "Parcel on its way to the gate", "owner": "team-logistics", "labels": ["team": "logistics"]]).status == 200)
        #expect(try MetadataAPITests.put(owner, "TrainStatus", ["owner": "team-rail", "labels": ["team": "checkout"]]).status == 200)
        #expect(try MetadataAPITests.putVersion(owner, "FlightStatus", 2, ["labels": ["app_version": "2.3.1"]]).status == 200)

        // A bare word: name (ASCII letters folded), description or owner.
        let status = try Self.search(owner, "STATUS")
        #expect(status.status == 200, "\(status.bodyText)")
        #expect(try Self.names(status) == ["FlightStatus", "TrainStatus"])
        #expect(try status.json()["results"]?.arrayValue?[safe: 0]?["matches"] == [["in": "name", "text": "FlightStatus"]])
        let parcel = try Self.search(owner, "parcel")
        #expect(try Self.names(parcel) == ["Delivery"])
        #expect(try parcel.json()["results"]?.arrayValue?[safe: 0]?["matches"]?.arrayValue?[safe: 0]?["in"] == "description")
        #expect(try Self.names(Self.search(owner, "team-")) == ["Delivery", "TrainStatus"])

        // owner:, label: (type and version labels), field: (name or path, any live version).
        #expect(try Self.names(Self.search(owner, "owner:rail")) == ["TrainStatus"])
        #expect(try Self.names(Self.search(owner, "owner:Status")) == [])
        #expect(try Self.names(Self.search(owner, "label:team=checkout")) == ["TrainStatus"])
        let built = try Self.search(owner, "label:app_version=2.3.1")
        #expect(try Self.names(built) == ["FlightStatus"])
        #expect(try built.json()["results"]?.arrayValue?[safe: 0]?["matches"] == [["in": "label", "text": "app_version=2.3.1", "version": 2]])
        let terminal = try Self.search(owner, "field:terminal")
        #expect(try terminal.json()["results"] == [["attributes_type": "FlightStatus", "matches": [["in": "field", "text": "content-state.terminal", "version": 1, "path": "content-state.terminal"]]]])
        let gate = try Self.search(owner, "field:legs[].gate")
        #expect(try Self.names(gate) == ["Delivery", "FlightStatus", "TrainStatus"])
        #expect(try gate.json()["results"]?.arrayValue?[safe: 1]?["matches"]?.arrayValue?[safe: 0]?["version"] == 2, "the newest version with the field")
        #expect(try Self.names(Self.search(owner, "field:flightnumber")).count == 3, "attributes fields too")

        // Terms AND together.
        #expect(try Self.names(Self.search(owner, "status field:platform")) == ["TrainStatus"])
        #expect(try Self.names(Self.search(owner, "status label:team=logistics")) == [])

        // A deleted version's fields are gone from search.
        #expect(try owner.request("DELETE", "/api/live_activity_schemas/FlightStatus/1?application=\(owner.code)").status == 200)
        #expect(try Self.names(Self.search(owner, "field:terminal")) == [])
        // LIKE's wildcards match only themselves.
        #expect(try Self.names(Self.search(owner, "Fl%us")) == [])
    }

    @Test func resultsComeInByteOrderAndPage() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let names = ["Zed", "alpha", "Beta", "Émile", "Ωmega", "_under"].map { "Paged\($0)" }
        for name in names { #expect(try owner.publish(name, Self.schema("seat")).status == 200) }
        let expected = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var seen: [String] = []
        var token = ""
        var pages = 0
        repeat {
            let page = try Self.search(owner, "paged", extra: "&page_size=4&page_token=\(token)")
            #expect(page.status == 200, "\(page.bodyText)")
            seen += try Self.names(page)
            token = try page.json()["next_page_token"]?.stringValue ?? ""
            pages += 1
        } while !token.isEmpty && pages < 10
        #expect(seen == expected && pages == 2)
    }

    @Test func malformedQueriesAreA400NamingQ() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let refused: [(String, String)] = [
            ("", "q: is required"),
            ("a", "shorter than 2 characters"),
            ("field:x", "shorter than 2 characters"),
            ("label:team", "must be label:key=value"),
            ("label:Team=x", "q: label key"),
            (Array(repeating: "word", count: 9).joined(separator: " "), "q: at most 8 terms"),
            (String(repeating: "w", count: 513), "q: at most 512 bytes"),
        ]
        for (query, message) in refused {
            try expectError(try Self.search(owner, query), status: 400, code: 3, mentioning: message)
        }
        try expectError(try Self.search(owner, "word", extra: "&page_token=nope"), status: 400, code: 3, mentioning: "pageToken")
        #expect(refused.count == 7)
    }

    /// At scale the statement's name branch scans the trigram index. (The field branch's estimate
    /// still prefers a sequential scan at this test's 18,000 paths; the bench measures it at scale.)
    @Test func theSearchPlanUsesTheTrigramIndexesAtScale() throws {
        // A database of its own: the plan depends on the tables' statistics, which other suites'
        // rows in a shared database would change from run to run.
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: try TestPostgres.shared.makeDatabase(), poolSize: 2))
        defer { pool.close() }
        let owner = try AdminStore(pool: pool).newTenant(port: 0)
        let store = PostgresSchemaStore(pool: pool)
        let application = try #require(try store.application(code: owner.code))
        let types = 600
        try pool.withConnection { connection in
            // The pool's statement timeout is for requests, not for loading a test's rows.
            try connection.simpleQuery("SET statement_timeout = 0")
            defer { _ = try? connection.simpleQuery("RESET statement_timeout") }
            try connection.simpleQuery("""
                INSERT INTO schema_version_counters (application_id, attributes_type, last_version)
                SELECT \(application.id), 'Scale' || n, 3 FROM generate_series(1, \(types)) AS n
                """)
            try connection.simpleQuery("""
                INSERT INTO schema_versions (application_id, attributes_type, version, json_schema, fields_indexed)
                SELECT \(application.id), 'Scale' || n, v, '{"type":"object","properties":{"f' || n || '":{"type":"string"}}}', true
                FROM generate_series(1, \(types)) AS n, generate_series(1, 3) AS v
                """)
            try connection.simpleQuery("""
                INSERT INTO version_fields (application_id, attributes_type, version, path)
                SELECT \(application.id), 'Scale' || n, v, 'content-state.' || md5(n || '-' || f)
                FROM generate_series(1, \(types)) AS n, generate_series(1, 3) AS v, generate_series(1, 10) AS f
                """)
            try connection.simpleQuery("ANALYZE schema_version_counters")
            try connection.simpleQuery("ANALYZE version_fields")
        }
        // Field names as varied as real ones: a name's letters say little about the others'.
        let wanted = String(try #require(try pool.withConnection { try $0.simpleQuery("SELECT md5('17-3')").rows.first?.string(0) }).prefix(12))
        let found = try store.search(application: application, query: try SearchQuery(parsing: "field:\(wanted)"), after: nil, limit: 10)
        #expect(found.map(\.attributesType) == ["Scale17"])
        let statement = PostgresSchemaStore.searchRead(
            application: application, query: try SearchQuery(parsing: "field:\(wanted) scale17"), after: nil, limit: 101)
        let plan = try pool.withConnection { connection in
            try connection.simpleQuery("PREPARE search_plan AS \(statement.statement.sql)")
            defer { _ = try? connection.simpleQuery("DEALLOCATE search_plan") }
            let text = { (index: Int) throws -> String in try #require(statement.parameters[index] as? String) }
            let arguments = "\(application.id), '\(try text(1))', NULL, 101, 20, '\(try text(5))', '\(try text(6))', '\(try text(7))', '\(try text(8))'"
            let explained = try connection.simpleQuery("EXPLAIN EXECUTE search_plan(\(arguments))")
            return try explained.rows.map { try $0.string(0) }.joined(separator: "\n")
        }
        #expect(plan.contains("schema_version_counters_name_trgm"), "\(plan)")
        #expect(types * 30 >= 18000)
    }
}

extension String {
    /// Percent-encoded for a query value: everything but unreserved characters.
    func addingPercentEncodingForQuery() -> String {
        var out = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return out
    }

    private func leftPadded() -> String { count == 1 ? "0" + self : self }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
