import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Compatibility reports and the audit rows that store them stay small however many versions
/// and fields a type has, and an audit page is bounded in bytes as well as rows.
@Suite struct ReportBoundsAPITests {
    let registry: TestRegistry
    let tenant: Tenant

    init() throws {
        registry = try TestRegistry.shared()
        tenant = try registry.makeTenant()
    }

    /// A schema of `names` string fields.
    static func schema(_ names: [String]) -> String {
        #"{"type":"object","properties":{"# + names.map { #""\#($0)":{"type":"string"}"# }.joined(separator: ",") + "}}"
    }

    /// Versions 1…`versions` of `type`, each with `fields` names of its own, published under
    /// mode `none` (nothing compared), then the type's policy set back to the default.
    func seed(_ type: String, versions: Int, fields: Int, nameLength: Int = 12) throws {
        let policy = "/api/live_activity_types/\(type)/compatibility_policy?application=\(tenant.code)"
        try #require(try tenant.request("PUT", policy, body: #"{"mode":"none","enforce":"warn"}"#).status == 200)
        for version in 1...versions {
            let names = (0..<fields).map { field in
                let name = "v\(version)f\(field)_"
                return name + String(repeating: "x", count: max(0, nameLength - name.count))
            }
            let published = try tenant.publish(type, Self.schema(names))
            try #require(published.status == 200, "\(published.bodyText.prefix(300))")
        }
        try #require(try tenant.request("PUT", policy, body: #"{"mode":"backward_transitive","enforce":"warn"}"#).status == 200)
    }

    func validate(_ type: String, _ schema: String) throws -> RawHTTPResponse {
        let body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema)]
        return try tenant.request("POST", "/api/live_activity_schemas:validate", body: JSONWriter.string(.object(body)))
    }

    /// The size of the newest publish event's details as stored.
    func newestPublishRowBytes(_ type: String) throws -> Int {
        let text = try registry.pool.withConnection { connection in
            try connection.simpleQuery(
                "SELECT octet_length(details::text) FROM audit_events WHERE account_id = \(tenant.accountID) AND action = 'publish' AND attributes_type = '\(type)' ORDER BY id DESC LIMIT 1"
            ).rows.first?.string(0)
        }
        return Int(try #require(text)) ?? -1
    }

    /// 120 versions of 117 different names: 11,700 groups against the 100 compared, 4.8 MB
    /// answered and stored before the bound.
    @Test func aReportOf120VersionsOf117NamesStaysSmall() throws {
        try seed("Wide", versions: 120, fields: 117)
        let dryRun = try validate("Wide", Self.schema(["other"]))
        #expect(dryRun.status == 200)
        #expect(dryRun.body.count < 300 << 10, "\(dryRun.body.count) bytes")
        let report = try #require(try dryRun.json()["compatibility"])
        // The newest version's 117 names are new problems; the 99 older versions' are inherited.
        #expect(report["group_count"] == 11_700)
        #expect(report["problem_count"] == 117)
        #expect(report["inherited_problem_count"] == 11_583)
        #expect(report["truncated"] == true)
        #expect(report["groups"]?.arrayValue?.count == 200)
        #expect(report["problems"]?.arrayValue?.count == 117)
        #expect(report["inherited_problems"]?.arrayValue?.count == 200)

        let published = try tenant.publish("Wide", Self.schema(["other"]))
        #expect(published.status == 200)
        #expect(published.body.count < 300 << 10, "\(published.body.count) bytes")
        let row = try newestPublishRowBytes("Wide")
        #expect(row > 0 && row < 300 << 10, "\(row) bytes")
    }

    /// One 57 KB publish against 60 versions of as many names: 120,000 groups, 50.9 MB
    /// answered and stored before the bound.
    @Test func a57KBPublishAgainst60VersionsStaysSmall() throws {
        try seed("Huge", versions: 60, fields: 2_000, nameLength: 0)
        let names = (0..<2_000).map { index in
            let name = "n\(index)_"
            return name + String(repeating: "y", count: max(0, 8 - name.count))
        }
        let schema = Self.schema(names)
        #expect(schema.utf8.count > 56_000)
        let published = try tenant.publish("Huge", schema)
        #expect(published.status == 200)
        #expect(published.body.count < 300 << 10, "\(published.body.count) bytes")
        let report = try #require(try published.json()["compatibility"])
        #expect(report["group_count"] == 120_000)
        #expect(report["truncated"] == true)
        let row = try newestPublishRowBytes("Huge")
        #expect(row > 0 && row < 300 << 10, "\(row) bytes")
    }

    /// A group's versions are ranges: the field every version had is one `[1, 30]`.
    @Test func aGroupsVersionsAreOneRange() throws {
        let policy = "/api/live_activity_types/Ranges/compatibility_policy?application=\(tenant.code)"
        try #require(try tenant.request("PUT", policy, body: #"{"mode":"none","enforce":"warn"}"#).status == 200)
        for version in 1...30 { try #require(try tenant.publish("Ranges", Self.schema(["kept", "gone", "v\(version)"])).status == 200) }
        try #require(try tenant.request("PUT", policy, body: #"{"mode":"backward_transitive","enforce":"warn"}"#).status == 200)
        let report = try #require(try validate("Ranges", Self.schema(["kept"])).json()["compatibility"])
        let gone = try #require(report["groups"]?.arrayValue?.first { $0["path"] == "content-state.gone" })
        #expect(gone["version_ranges"] == [[1, 30]])
        #expect(gone["version_count"] == 30)
        #expect(report["truncated"] == false)
    }

    /// Events written before the bound (2 MB of details each) and events of 300 KB: a page
    /// ends when its details pass 1 MiB, with a token, and the tokens reach every event once.
    @Test func anAuditPageIsBoundedInBytesAndPagesReachEveryEvent() async throws {
        let application = try #require(try await PostgresSchemaStore(pool: registry.pool).application(code: tenant.code))
        let insert = { (bytes: Int, count: Int) throws in
            _ = try registry.pool.withConnection { connection in
                try connection.simpleQuery("""
                    INSERT INTO audit_events (account_id, actor, token_name, action, application_id, attributes_type, version, details)
                    SELECT \(tenant.accountID), 'cli', '', 'publish', \(application.id), 'Flooded', n,
                           jsonb_build_object('compatibility', repeat('x', \(bytes)))
                    FROM generate_series(1, \(count)) AS n
                    """)
            }
        }
        try insert(2_000_000, 5)
        try insert(300_000, 10)
        var seen: [Int64] = []
        var token: String?
        var pages = 0
        repeat {
            let query = "/api/audit_events?application=\(tenant.code)&attributesType=Flooded&pageSize=60" + (token.map { "&pageToken=\($0)" } ?? "")
            let page = try tenant.request("GET", query)
            try #require(page.status == 200, "\(page.bodyText.prefix(300))")
            #expect(page.body.count < (1 << 20) + (64 << 10), "\(page.body.count) bytes")
            let body = try page.json()
            let events = try #require(body["audit_events"]?.arrayValue)
            #expect(!events.isEmpty)
            for event in events {
                seen.append(try #require(event["id"]?.integerLexemeValue.map(Int64.init)))
                if let omitted = event["details"]?["bytes"] { #expect(omitted.integerLexemeValue ?? 0 > 512 << 10) }
            }
            token = body["next_page_token"]?.stringValue
            pages += 1
        } while token != nil && pages < 20
        #expect(seen.count == 15)
        #expect(Set(seen).count == 15)
        #expect(seen == seen.sorted(by: >))
        // 10 × 300 KB over 1 MiB pages, the five omitted ones small: at least four pages.
        #expect(pages >= 4, "\(pages) pages")
    }
}
