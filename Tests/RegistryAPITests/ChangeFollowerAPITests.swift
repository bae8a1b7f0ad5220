import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Replicas learn of every change from the change feed: woken by the hint the replica that
/// made it sends after its commit, and on a timer for changes that send none.
@Suite struct ChangeFollowerAPITests {
    private static func latestVersion(_ tenant: Tenant, _ type: String) throws -> String? {
        let response = try tenant.request("GET", "/api/live_activity_schemas/\(type)/latest?application=\(tenant.code)")
        guard response.status == 200 else { return nil }
        return try response.json()["schema"]?["version"].map(JSONWriter.string)
    }

    private static func status(_ tenant: Tenant, _ type: String, _ version: Int) throws -> Int {
        try tenant.request("GET", "/api/live_activity_schemas/\(type)/\(version)?application=\(tenant.code)").status
    }

    /// What psql or an import writes sends no hint: the follower's timer finds it in the feed.
    @Test func aPublishAndADeleteInPlainSQLReachARunningServerWithinTheFallbackInterval() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let registry = try TestRegistry(databaseURL: database)
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Raw", SchemaAPITests.flight).status == 200)
        // Both are in memory now: latest names version 1, and version 1 is cached.
        #expect(try Self.latestVersion(tenant, "Raw") == "1")
        #expect(try Self.status(tenant, "Raw", 1) == 200)
        #expect(try Self.status(tenant, "Raw", 1) == 200)

        let psql = try PGConnection.connect(PostgresConfig(databaseURL: database))
        _ = try psql.simpleQuery(
            """
            BEGIN;
            INSERT INTO schema_versions (application_id, attributes_type, version, json_schema)
                SELECT id, 'Raw', 2, '{"type":"object"}' FROM applications WHERE code = '\(tenant.code)';
            UPDATE schema_versions SET deleted_at = now(), json_schema = NULL
                WHERE attributes_type = 'Raw' AND version = 1
                  AND application_id = (SELECT id FROM applications WHERE code = '\(tenant.code)');
            COMMIT
            """)
        let clock = ContinuousClock()
        let committed = clock.now
        let seen = try eventually(
            seconds: 10, { (try Self.latestVersion(tenant, "Raw"), try Self.status(tenant, "Raw", 1)) },
            until: { $0.0 == "2" && $0.1 == 404 })
        #expect(seen.0 == "2", "latest still names the version before the plain-SQL publish")
        #expect(seen.1 == 404, "a version deleted in plain SQL is still served")
        // The bound itself, with room for a loaded machine: a lost change would never be seen.
        let fallback = ChangeFollower.fallbackInterval
        #expect(clock.now - committed < fallback * 5, "seen after \(clock.now - committed), the timer is every \(fallback)")
    }

    /// With the timer an hour away, only the hint a publish sends after its commit can move
    /// another server's caches and wake its long poll.
    @Test func anotherServerLearnsOfAPublishAndADeleteFromTheHintAlone() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database, fallbackInterval: .seconds(3600))
        defer { a.stop() }
        let b = try TestRegistry(databaseURL: database, fallbackInterval: .seconds(3600))
        defer { b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(b)
        #expect(try onA.publish("Hinted", SchemaAPITests.flight).status == 200)
        let first = try eventually({ try Self.latestVersion(onB, "Hinted") }, until: { $0 == "1" })
        #expect(first == "1")
        #expect(try Self.status(onB, "Hinted", 1) == 200)

        let start = try onB.request("GET", "/api/changes?application=\(onB.code)&after=now")
        let cursor = try #require(try start.json()["cursor"]?.stringValue)
        let waiter = Background {
            try onB.request("GET", "/api/changes?application=\(onB.code)&wait=30&after=\(cursor)")
        }
        #expect(waitUntil { b.api.waitingRoom.count == 1 }, "the long poll parked on B")
        #expect(try onA.publish("Hinted", SchemaAPITests.flight).status == 200)
        let woken = try waiter.result()
        #expect(woken.status == 200, "\(woken.bodyText)")
        #expect(try ChangeFeedOnTheLoopTests.events(woken.body) == ["published Hinted 2"], "woken by the hint, not at its deadline")
        #expect(try eventually({ try Self.latestVersion(onB, "Hinted") }, until: { $0 == "2" }) == "2")

        #expect(try onA.request("DELETE", "/api/live_activity_schemas/Hinted/1?application=\(onA.code)").status == 200)
        #expect(try eventually({ try Self.status(onB, "Hinted", 1) }, until: { $0 == 404 }) == 404, "B still serves a deleted version")
    }
}
