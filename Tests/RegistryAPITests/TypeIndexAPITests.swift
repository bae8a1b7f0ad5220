import Registry
import RegistryAPI
@testable import RegistryPostgres
import Testing
import TestSupport

/// `GET /api/live_activity_types`: one entry per live type, paged and filtered by prefix.
@Suite struct TypeIndexAPITests {
    private static func page(_ tenant: Tenant, _ query: String = "") throws -> JSONValue {
        let response = try tenant.request("GET", "/api/live_activity_types?application=\(tenant.code)\(query)")
        #expect(response.status == 200, "\(response.bodyText)")
        return try response.json()
    }

    private static func names(_ page: JSONValue) -> [String] {
        (page["types"]?.arrayValue ?? []).compactMap { $0["attributes_type"]?.stringValue }
    }

    @Test func eachLiveTypeHasItsCountNewestVersionAndPolicyButNoSchemaText() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        _ = try tenant.publish("Flight", SchemaAPITests.flight)
        _ = try tenant.publish("Flight", SchemaAPITests.flight)
        _ = try tenant.publish("Flight", SchemaAPITests.flight)
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Flight/2?application=\(tenant.code)").status == 200)
        _ = try tenant.publish("Delivery", SchemaAPITests.flight)
        _ = try tenant.publish("Retired", SchemaAPITests.flight)
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Retired/1?application=\(tenant.code)").status == 200)
        _ = try tenant.publish("Taxi", SchemaAPITests.flight)
        try registry.pool.withConnection { connection in
            _ = try connection.simpleQuery(
                """
                INSERT INTO compatibility_policies (application_id, attributes_type, mode, enforce, oldest_supported_version)
                SELECT id, '', 'backward', 'reject', 1 FROM applications WHERE code = '\(tenant.code)'
                UNION ALL
                SELECT id, 'Taxi', 'none', 'warn', 4 FROM applications WHERE code = '\(tenant.code)'
                """)
        }
        let page = try Self.page(tenant)
        #expect(Self.names(page) == ["Delivery", "Flight", "Taxi"], "byte order, deleted-only types left out")
        let flight = try #require(page["types"]?.arrayValue?[1])
        #expect(flight["live_versions"] == .number("2"))
        #expect(flight["newest_version"] == .number("3"))
        #expect(flight["newest_created"]?.stringValue?.hasSuffix("Z") == true)
        #expect(flight["json_schema"] == nil)
        #expect(flight["compatibility_policy"] == ["mode": "backward", "enforce": "reject", "oldest_supported_version": .number("1")])
        let taxi = try #require(page["types"]?.arrayValue?[2])
        #expect(taxi["compatibility_policy"] == ["mode": "none", "enforce": "warn", "oldest_supported_version": .number("4")])
        #expect(page["next_page_token"] == nil)

        let other = try registry.makeTenant()
        _ = try other.publish("Solo", SchemaAPITests.flight)
        let solo = try #require(Self.page(other)["types"]?.arrayValue?.first)
        #expect(solo["compatibility_policy"] == ["mode": "backward_transitive", "enforce": "warn", "oldest_supported_version": .number("1")])
    }

    @Test func prefixMatchesBytesLiterallyWithoutPatternCharacters() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for name in ["a%b", "a_b", "axb", "a\\b", "ab", "Café", "Cafe\u{301}", "Caf", "Cb", "\u{10FFFF}x", "\u{10FFFF}"] {
            #expect(try tenant.publish(name, SchemaAPITests.flight).status == 200, "\(name)")
        }
        #expect(Self.names(try Self.page(tenant, "&prefix=a%25")) == ["a%b"])
        #expect(Self.names(try Self.page(tenant, "&prefix=a_")) == ["a_b"])
        #expect(Self.names(try Self.page(tenant, "&prefix=a%5C")) == ["a\\b"])
        #expect(Self.names(try Self.page(tenant, "&prefix=Caf%C3%A9")) == ["Café"], "composed é only, not e + U+0301")
        #expect(Self.names(try Self.page(tenant, "&prefix=Cafe")) == ["Cafe\u{301}"])
        #expect(Self.names(try Self.page(tenant, "&prefix=Caf")).count == 3)
        #expect(Self.names(try Self.page(tenant, "&prefix=%F4%8F%BF%BF")) == ["\u{10FFFF}", "\u{10FFFF}x"], "no upper bound above U+10FFFF")
        #expect(Self.names(try Self.page(tenant, "&prefix=zzz")).isEmpty)
    }

    @Test func badParametersAreRefusedNamingThem() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let listToken = "djE6MTpBYg"  // a list token (v1:1:Ab), not a type-index token
        for (query, field) in [
            ("&pageSize=1001", "pageSize"), ("&pageSize=x", "pageSize"), ("&pageToken=%21", "pageToken"),
            ("&pageToken=\(listToken)", "pageToken"), ("&prefix=\(String(repeating: "a", count: 257))", "prefix"),
        ] {
            let response = try tenant.request("GET", "/api/live_activity_types?application=\(tenant.code)\(query)")
            #expect(response.status == 400, "\(query)")
            #expect(try response.json()["message"]?.stringValue?.hasPrefix(field) == true, "\(query)")
        }
        #expect(try tenant.request("GET", "/api/live_activity_types").status == 400)
        #expect(try tenant.request("GET", "/api/live_activity_types?application=NOPE0-NOPE0").status == 404)
    }

    @Test func tenThousandTypesPageInOrderAndFilterByPrefixUsingTheIndex() throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        let typeCount = 10_000
        let seeded = try registry.pool.withConnection { connection in
            try connection.withoutTimeouts {
                let application = "(SELECT id FROM applications WHERE code = '\(tenant.code)')"
                _ = try connection.simpleQuery(
                    """
                    INSERT INTO schema_version_counters (application_id, attributes_type, last_version)
                    SELECT \(application), 'Type' || lpad(n::text, 5, '0'), 2 FROM generate_series(1, \(typeCount)) AS n;
                    INSERT INTO schema_versions (application_id, attributes_type, version, json_schema)
                    SELECT \(application), 'Type' || lpad(n::text, 5, '0'), v, '{"type":"object"}'
                    FROM generate_series(1, \(typeCount)) AS n, generate_series(1, 2) AS v;
                    ANALYZE schema_version_counters; ANALYZE schema_versions;
                    """)
                return try connection.simpleQuery("SELECT count(*) FROM schema_version_counters").rows.first?.int64(0)
            }
        }
        #expect(seeded == Int64(typeCount))

        var all: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try Self.page(tenant, "&pageSize=1000" + (token.map { "&pageToken=\($0)" } ?? ""))
            all += Self.names(page)
            token = page["next_page_token"]?.stringValue
            pages += 1
        } while token != nil && pages < 20
        #expect(all.count == typeCount)
        #expect(pages == 10)
        #expect(all == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(all).count == typeCount)

        let prefixed = try Self.page(tenant, "&prefix=Type012&pageSize=50")
        #expect(Self.names(prefixed) == (1200...1249).map { "Type0\($0)" })
        let rest = try Self.page(tenant, "&prefix=Type012&pageSize=1000&pageToken=\(try #require(prefixed["next_page_token"]?.stringValue))")
        #expect(Self.names(rest) == (1250...1299).map { "Type0\($0)" })
        #expect(rest["next_page_token"] == nil)

        // The service's own statement, for a middle page of a prefix.
        let explain = PGStatement("test_explain_type_index", "EXPLAIN " + PostgresSchemaStore.typeIndex.sql)
        let applicationID = try #require(try registry.pool.withConnection { connection in
            try connection.simpleQuery("SELECT id FROM applications WHERE code = '\(tenant.code)'").rows.first?.int64(0)
        })
        let plan = try registry.pool.withConnection { connection in
            try connection.execute(explain, [applicationID, "Type05000", "Type0", "Type1", 101]).rows.map { try $0.string(0) }
                .joined(separator: "\n")
        }
        #expect(plan.contains("schema_version_counters_pkey"), "\(plan)")
        #expect(!plan.contains("Seq Scan on schema_version_counters"), "\(plan)")
        #expect(!plan.contains("Seq Scan on schema_versions"), "\(plan)")
    }
}
