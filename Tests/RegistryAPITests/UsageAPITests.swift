import Foundation
import Registry
import RegistryAPI
import RegistryPostgres
import Testing
import TestSupport

/// Usage over HTTP against PostgreSQL: every route that answers about a version counts one
/// read of it per successful answer, warm or cold, by the token that asked; the usage routes
/// report them (this replica's counts flushed first); the counter's capacity bounds memory.
///
/// Tests that expect reads to be counted use a registry of their own, so that no other test's
/// reads or flushes share their counter.
@Suite struct UsageAPITests {
    static let schema = #"{"type":"object","properties":{"gate":{"type":"string"}},"attributes":{"properties":{"flight":{"type":"string"}}}}"#

    /// One request per counted route, for version 1 of `type` (the only version, so `latest`
    /// is 1 too).
    static let countedRoutes: [(route: String, request: @Sendable (Tenant, String) -> (String, String, JSONObject?))] = [
        ("get", { t, type in ("GET", "/api/live_activity_schemas/\(type)/1?application=\(t.code)", nil) }),
        ("form", { t, type in ("GET", "/api/live_activity_schemas/\(type)/1/form?application=\(t.code)", nil) }),
        ("latest", { t, type in ("GET", "/api/live_activity_schemas/\(type)/latest?application=\(t.code)", nil) }),
        ("latest form", { t, type in ("GET", "/api/live_activity_schemas/\(type)/latest/form?application=\(t.code)", nil) }),
        ("check", { t, type in
            ("POST", "/api/live_activity_schemas/\(type)/1:check", ["application": .string(t.code), "event": "update", "content_state": [:]])
        }),
        ("latest check", { t, type in
            ("POST", "/api/live_activity_schemas/\(type)/latest:check", ["application": .string(t.code), "event": "update", "content_state": [:]])
        }),
        ("preview of a version", { t, type in
            ("POST", "/api/live_activities:preview", [
                "application": .string(t.code), "bundle_id": "com.example.flights", "attributes_type": .string(type), "schema_version": 1,
            ])
        }),
        ("preview of the newest", { t, type in
            ("POST", "/api/live_activities:preview", ["application": .string(t.code), "bundle_id": "com.example.flights", "attributes_type": .string(type)])
        }),
        ("lookup", { t, type in
            ("POST", "/api/live_activity_schemas:lookup", ["application": .string(t.code), "attributesType": .string(type), "jsonSchema": .string(schema)])
        }),
    ]

    func send(_ tenant: Tenant, _ request: (String, String, JSONObject?)) throws -> RawHTTPResponse {
        try tenant.request(request.0, request.1, body: request.2.map { JSONWriter.string(.object($0)) })
    }

    func usage(_ tenant: Tenant, _ path: String) throws -> JSONValue {
        let response = try tenant.request("GET", path)
        #expect(response.status == 200, "\(path): \(response.bodyText)")
        return try #require(try response.json()["usage"])
    }

    @Test func everyCountedRouteCountsEachSuccessfulAnswerColdAndWarm() throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        var checked = 0
        for (index, counted) in Self.countedRoutes.enumerated() {
            let type = "Counted\(index)"
            #expect(try tenant.publish(type, Self.schema).status == 200)
            // The first answer may read the store, the second comes from memory where cached.
            for _ in 0..<2 {
                let response = try send(tenant, counted.request(tenant, type))
                #expect(response.status == 200, "\(counted.route): \(response.bodyText)")
            }
            let report = try usage(tenant, "/api/live_activity_schemas/\(type)/1/usage?application=\(tenant.code)")
            #expect(report["total_reads"]?.int == 2, "\(counted.route): \(JSONWriter.string(report))")
            let readers = try #require(report["readers"]?.arrayValue)
            #expect(readers.count == 1 && readers.first?["token_id"]?.int == Int(tenant.tokenID), "\(counted.route)")
            #expect(readers.first?["reads"]?.int == 2)
            #expect(report["days"]?.arrayValue?.count == 1)
            #expect(report["last_read"]?.stringValue?.hasSuffix("Z") == true)
            checked += 1
        }
        #expect(checked == Self.countedRoutes.count && checked == 9)
    }

    @Test func failedAnswersAndOtherRoutesAreNotCounted() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Quiet", Self.schema).status == 200)
        #expect(try tenant.publish("Quiet", Self.schema).status == 200)
        let notCounted: [(String, String, JSONObject?)] = [
            ("GET", "/api/live_activity_schemas/Quiet/9?application=\(tenant.code)", nil),
            ("GET", "/api/live_activity_schemas/Quiet/2:diff?against=1&application=\(tenant.code)", nil),
            ("GET", "/api/live_activity_schemas?application=\(tenant.code)", nil),
            ("GET", "/api/live_activity_types?application=\(tenant.code)", nil),
            ("POST", "/api/live_activity_schemas/Quiet/1:check", ["application": .string(tenant.code), "event": "nonsense"]),
        ]
        for request in notCounted { _ = try send(tenant, request) }
        let report = try usage(tenant, "/api/live_activity_types/Quiet/usage?application=\(tenant.code)")
        #expect(report["total_reads"]?.int == 0, "\(JSONWriter.string(report))")
        #expect(report["last_read"] == .null)
        #expect(report["readers"]?.arrayValue?.isEmpty == true)
    }

    @Test func readsAreAttributedToEachTokenByName() throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let owner = try registry.makeTenant()
        let admin = AdminStore(pool: registry.pool)
        let journeys = try admin.tenant(like: owner, terms: TokenTerms(scope: .read, name: "journeys-prod"))
        let unnamed = try admin.tenant(like: owner, terms: TokenTerms(scope: .read))
        #expect(try owner.publish("Boarding", Self.schema).status == 200)
        #expect(try owner.publish("Boarding", Self.schema + " ").status == 200)
        for _ in 0..<3 { #expect(try journeys.request("GET", "/api/live_activity_schemas/Boarding/1?application=\(owner.code)").status == 200) }
        #expect(try journeys.request("GET", "/api/live_activity_schemas/Boarding/2?application=\(owner.code)").status == 200)
        #expect(try unnamed.request("GET", "/api/live_activity_schemas/Boarding/latest?application=\(owner.code)").status == 200)

        let one = try usage(owner, "/api/live_activity_schemas/Boarding/1/usage?application=\(owner.code)")
        #expect(one["total_reads"]?.int == 3)
        let oneReaders = try #require(one["readers"]?.arrayValue)
        #expect(oneReaders.map { $0["token_name"]?.stringValue } == ["journeys-prod"])
        #expect(oneReaders.first?["versions"] == nil, "a version's readers do not list versions")

        let type = try usage(owner, "/api/live_activity_types/Boarding/usage?application=\(owner.code)")
        #expect(type["total_reads"]?.int == 5)
        let readers = try #require(type["readers"]?.arrayValue)
        #expect(readers.map { $0["token_id"]?.int } == [Int(journeys.tokenID), Int(unnamed.tokenID)], "most reads first")
        #expect(readers.map { $0["token_name"]?.stringValue } == ["journeys-prod", ""])
        let versions = try #require(readers.first?["versions"]?.arrayValue)
        #expect(versions.map { [$0["version"]?.int, $0["reads"]?.int] } == [[1, 3], [2, 1]])
        #expect(readers.last?["versions"]?.arrayValue?.map { $0["version"]?.int } == [2])
    }

    @Test func theDeleteAnswerSummarisesWhoStillReadTheVersion() throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let owner = try registry.makeTenant()
        let reader = try AdminStore(pool: registry.pool).tenant(like: owner, terms: TokenTerms(scope: .read, name: "widget"))
        #expect(try owner.publish("Doomed", Self.schema).status == 200)
        for _ in 0..<4 { #expect(try reader.request("GET", "/api/live_activity_schemas/Doomed/1/form?application=\(owner.code)").status == 200) }
        let deleted = try owner.request("DELETE", "/api/live_activity_schemas/Doomed/1?application=\(owner.code)")
        #expect(deleted.status == 200, "\(deleted.bodyText)")
        let summary = try #require(try deleted.json()["usage"])
        #expect(summary["total_reads"]?.int == 4 && summary["readers"]?.int == 1, "\(deleted.bodyText)")
        #expect(summary["last_read"]?.stringValue?.hasSuffix("Z") == true)
        // The history outlives the version.
        #expect(try usage(owner, "/api/live_activity_schemas/Doomed/1/usage?application=\(owner.code)")["total_reads"]?.int == 4)
    }

    @Test func theWindowIsBoundedAndTheApplicationChecked() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let stranger = try registry.makeTenant()
        for days in ["0", "3661", "x", "-1"] {
            try expectError(
                try tenant.request("GET", "/api/live_activity_types/T/usage?application=\(tenant.code)&days=\(days)"), status: 400, code: 3,
                mentioning: "days: must be an integer from 1 to 3660")
        }
        #expect(try tenant.request("GET", "/api/live_activity_types/T/usage?application=\(tenant.code)&days=3660").status == 200)
        try expectError(try stranger.request("GET", "/api/live_activity_types/T/usage?application=\(tenant.code)"), status: 403, code: 7)
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/T/0/usage?application=\(tenant.code)"), status: 400, code: 3)
    }

    @Test func pruningDeletesOnlyDaysPastTheRetentionAndAFlushAddsToExistingRows() async throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        let store = PostgresSchemaStore(pool: registry.pool)
        let application = try #require(try await store.application(code: tenant.code))
        let today = UsageKey.day(ofUnixSeconds: WallClock.now())
        let key = { (day: Int32) in
            UsageKey(applicationID: application.id, attributesType: "Old\u{E9}", version: 1, tokenID: tenant.tokenID, day: day)
        }
        try await store.addReads([(key(today - 100), UsageTally(reads: 5, lastRead: 1)), (key(today - 89), UsageTally(reads: 2, lastRead: 2))])
        try await store.addReads([(key(today - 89), UsageTally(reads: 3, lastRead: 1))])
        await #expect(try store.usage(application: application, attributesType: "Old\u{E9}", version: 1, days: nil).summary.totalReads == 10)
        // Canonically equivalent, but another type to the database.
        await #expect(try store.usage(application: application, attributesType: "Olde\u{301}", version: 1, days: nil).summary.totalReads == 0)
        #expect(try store.pruneUsage(olderThanDays: 90, batchSize: 1) == 1)
        let kept = try await store.usage(application: application, attributesType: "Old\u{E9}", version: 1, days: nil)
        #expect(kept.summary.totalReads == 5 && kept.days.count == 1)
        #expect(kept.summary.lastRead == "1970-01-01T00:00:02Z", "the later last read is kept")
        await #expect(try store.usage(application: application, attributesType: "Old\u{E9}", version: 1, days: 30).summary.totalReads == 0)
    }

    @Test func pastTheCapacityNewKeysAreNotCountedUntilTheNextFlush() async throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase(), usage: UsageSettings(maxEntries: 3))
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        for _ in 1...5 { #expect(try tenant.publish("Capped", Self.schema).status == 200) }
        try await registry.api.flushUsage()
        // Sequential reads on one connection: every new key takes one entry.
        let session = TenantSession(tenant)
        for version in 1...5 {
            #expect(try session.request("GET", "/api/live_activity_schemas/Capped/\(version)?application=\(tenant.code)").status == 200)
        }
        #expect(registry.api.usageStatistics.entries == 3)
        #expect(registry.api.usageStatistics.droppedReads == 2)
        await #expect(try registry.api.flushUsage() == 3)
        #expect(registry.api.usageStatistics.entries == 0)
        let report = try usage(tenant, "/api/live_activity_types/Capped/usage?application=\(tenant.code)")
        #expect(report["total_reads"]?.int == 3, "\(JSONWriter.string(report))")
        // After the flush there is room again.
        #expect(try session.request("GET", "/api/live_activity_schemas/Capped/5?application=\(tenant.code)").status == 200)
        #expect(try usage(tenant, "/api/live_activity_types/Capped/usage?application=\(tenant.code)")["total_reads"]?.int == 4)
    }

    /// A usage answer waits for a flush already in progress, so it counts the reads that flush
    /// drained before its write committed. The flush (awaited on a loop of its own, as the
    /// server's timer would) is held by a lock on the table until the usage request has been
    /// sent; answered before the flush commits, the request would count none.
    @Test func aUsageAnswerCountsTheReadsOfAFlushInProgress() throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Flushing", Self.schema).status == 200)
        #expect(try tenant.request("GET", "/api/live_activity_schemas/Flushing/1?application=\(tenant.code)").status == 200)

        let holder = try PGConnection.connect(PostgresConfig(databaseURL: registry.databaseURL))
        let watcher = try PGConnection.connect(PostgresConfig(databaseURL: registry.databaseURL))
        try holder.simpleQuery("BEGIN")
        try holder.simpleQuery("LOCK TABLE version_reads IN EXCLUSIVE MODE")
        let loop = try LoopThread()
        defer { loop.stop() }
        let api = registry.api
        let flush = loop.start(1, of: Int.self) { _ in try await api.flushUsage() }
        let waitingFlush = PGStatement(
            "test_waiting_flush",
            """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO version_reads%'
            """)
        var waiting = false
        for _ in 0..<1000 where !waiting {
            waiting = try watcher.execute(waitingFlush).rows.first?.int64(0) == 1
            if !waiting { usleep(5_000) }
        }
        #expect(waiting, "the timer's flush has drained the counter and waits for the table")

        let answer = Background { try tenant.request("GET", "/api/live_activity_types/Flushing/usage?application=\(tenant.code)") }
        usleep(300_000)
        try holder.simpleQuery("COMMIT")
        #expect(try flush.wait()[0].get() == 1)
        let response = try answer.result()
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.json()["usage"]?["total_reads"]?.int == 1, "\(response.bodyText)")
    }
}
