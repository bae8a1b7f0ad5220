import Foundation
import Registry
import RegistryAPI
import RegistryPostgres
import Testing
import TestSupport

/// A state change, pin, unpin or delete answers once every live replica has applied it to its
/// caches (`PropagationBarrier`): after the answer no replica serves what it made stale.
@Suite struct PropagationBarrierAPITests {
    static let schema = SchemaAPITests.flight

    static func change(_ tenant: Tenant, _ type: String, _ version: Int, _ action: String, _ body: JSONObject = [:]) throws
        -> RawHTTPResponse
    {
        try VersionStateAPITests.change(tenant, type, version, action, body)
    }

    static func get(_ tenant: Tenant, _ path: String) throws -> RawHTTPResponse {
        try tenant.request("GET", "/api/live_activity_schemas/\(path)?application=\(tenant.code)")
    }

    struct Figures: Equatable {
        let replicas: Int?
        let applied: Int?
        let complete: Bool?

        init(_ replicas: Int?, _ applied: Int?, _ complete: Bool?) {
            self.replicas = replicas
            self.applied = applied
            self.complete = complete
        }
    }

    /// The answer's `propagation` object.
    static func propagation(_ response: RawHTTPResponse) throws -> Figures {
        let object = try response.json()["propagation"]
        return Figures(object?["replicas"]?.int, object?["applied"]?.int, object?["complete"]?.boolValue)
    }

    /// A replica that follows no more, as a row: seen now, at a position before every change.
    static func insertStalledReplica(_ database: String, seenSecondsAgo: Int = 0) throws {
        let psql = try PGConnection.connect(PostgresConfig(databaseURL: database))
        try psql.simpleQuery(
            """
            INSERT INTO replica_feed_positions (replica_id, host, applied_position, seen_at)
            VALUES ('stalled', 'nowhere', '1:1:', now() - interval '\(seenSecondsAgo) seconds')
            ON CONFLICT (replica_id) DO UPDATE SET seen_at = EXCLUDED.seen_at
            """)
    }

    static func caching(timeoutMilliseconds: Int) -> CacheSettings {
        CacheSettings(responseBytes: 8 << 20, lookupSeconds: 0, propagationTimeoutMilliseconds: timeoutMilliseconds)
    }

    /// Replica b reads the feed on hints only (its timer is a minute away) and holds the version,
    /// its form and `latest` in memory: the answer on a says both replicas applied the change,
    /// and b refuses the version at once, with no wait in between.
    @Test func afterAnAcknowledgedDisableTheOtherReplicaRefusesTheVersionAtOnce() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database)
        let b = try TestRegistry(databaseURL: database, fallbackInterval: .seconds(60))
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(b)
        #expect(try onA.publish("Shared", Self.schema).status == 200)
        #expect(try onA.publish("Shared", Self.schema).status == 200)
        // Warm: b serves version 2, its form and latest from memory.
        let paths = ["Shared/2", "Shared/2/form", "Shared/latest"]
        for path in paths {
            #expect(try eventually({ try Self.get(onB, path) }, until: { $0.status == 200 }).status == 200)
            #expect(try Self.get(onB, path).status == 200)
        }
        let misses = b.api.cacheStatistics.misses
        #expect(try Self.get(onB, "Shared/2").status == 200)
        #expect(b.api.cacheStatistics.misses == misses, "b did not serve version 2 from memory")

        let disabled = try Self.change(onA, "Shared", 2, "disable", VersionStateAPITests.disable)
        #expect(disabled.status == 200, "\(disabled.bodyText)")
        #expect(try Self.propagation(disabled) == Figures(2, 2, true), "\(disabled.bodyText)")
        #expect(try Self.get(onB, "Shared/2").status == 404, "replica b served a disabled version after the acknowledged answer")
        #expect(try Self.get(onB, "Shared/2/form").status == 404)
        #expect(try Self.get(onB, "Shared/latest").json()["schema"]?["version"]?.int == 1)

        // The same barrier for a restore, a pin, an unpin and a delete.
        let restored = try Self.change(onA, "Shared", 2, "restore")
        #expect(try Self.propagation(restored) == Figures(2, 2, true), "\(restored.bodyText)")
        #expect(try Self.get(onB, "Shared/latest").json()["schema"]?["version"]?.int == 2)
        let pinned = try VersionStateAPITests.pin(onA, "Shared", 1)
        #expect(pinned.status == 200, "\(pinned.bodyText)")
        #expect(try Self.propagation(pinned) == Figures(2, 2, true), "\(pinned.bodyText)")
        #expect(try Self.get(onB, "Shared/latest").json()["schema"]?["version"]?.int == 1, "b did not follow the pin at once")
        let unpinned = try VersionStateAPITests.pin(onA, "Shared", nil)
        #expect(unpinned.status == 200, "\(unpinned.bodyText)")
        #expect(try Self.propagation(unpinned) == Figures(2, 2, true), "\(unpinned.bodyText)")
        #expect(try Self.get(onB, "Shared/latest").json()["schema"]?["version"]?.int == 2, "b did not follow the unpin at once")
        #expect(try Self.get(onB, "Shared/2").status == 200)
        let deleted = try onA.request("DELETE", "/api/live_activity_schemas/Shared/2?application=\(onA.code)")
        #expect(deleted.status == 200, "\(deleted.bodyText)")
        #expect(try Self.propagation(deleted) == Figures(2, 2, true), "\(deleted.bodyText)")
        #expect(try Self.get(onB, "Shared/2").status == 404, "replica b served a deleted version after the acknowledged answer")
    }

    /// A replica still seen but not moving (its follower stuck) is waited for until the timeout,
    /// and the answer says the change is not everywhere yet; once its row is older than 5 s it is
    /// dead and not waited for.
    @Test func aLiveReplicaThatDoesNotApplyMakesTheAnswerIncompleteAndADeadOneIsNotWaitedFor() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database, caching: Self.caching(timeoutMilliseconds: 300))
        defer { a.stop() }
        let tenant = try a.makeTenant()
        #expect(try tenant.publish("Stuck", Self.schema).status == 200)

        try Self.insertStalledReplica(database)
        let clock = ContinuousClock()
        let started = clock.now
        let disabled = try Self.change(tenant, "Stuck", 1, "disable", VersionStateAPITests.disable)
        let waited = clock.now - started
        #expect(disabled.status == 200, "\(disabled.bodyText)")
        #expect(try Self.propagation(disabled) == Figures(2, 1, false), "\(disabled.bodyText)")
        #expect(waited >= .milliseconds(300), "answered after \(waited), before the timeout")

        try Self.insertStalledReplica(database, seenSecondsAgo: 6)
        let restored = try Self.change(tenant, "Stuck", 1, "restore")
        #expect(try Self.propagation(restored) == Figures(1, 1, true), "\(restored.bodyText)")
    }

    /// With a timeout of 0 the answer reports where the replicas are, without waiting for them.
    @Test func aTimeoutOfZeroAnswersWithoutWaiting() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database, caching: Self.caching(timeoutMilliseconds: 0))
        defer { a.stop() }
        let tenant = try a.makeTenant()
        #expect(try tenant.publish("Quick", Self.schema).status == 200)
        try Self.insertStalledReplica(database)
        let clock = ContinuousClock()
        let started = clock.now
        let disabled = try Self.change(tenant, "Quick", 1, "disable", VersionStateAPITests.disable)
        let waited = clock.now - started
        #expect(disabled.status == 200, "\(disabled.bodyText)")
        // The stalled row is never applied: an answer that waited for it would take the default 5 s.
        #expect(try Self.propagation(disabled).complete == false, "\(disabled.bodyText)")
        #expect(waited < .seconds(3), "answered after \(waited)")
    }

    /// A replica whose follower stopped reading fences its caches once the read is overdue: it
    /// answers from the database, so a version disabled elsewhere is refused though its body is
    /// still in this replica's memory and no invalidation reached it.
    @Test func aReplicaWhoseFollowerStalledDoesNotServeItsCachedDisabledVersion() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database)
        let b = try TestRegistry(databaseURL: database)
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(b)
        #expect(try onA.publish("Fenced", Self.schema).status == 200)
        #expect(try onA.publish("Fenced", Self.schema).status == 200)
        #expect(try eventually({ try Self.get(onB, "Fenced/2") }, until: { $0.status == 200 }).status == 200)
        #expect(try Self.get(onB, "Fenced/latest").json()["schema"]?["version"]?.int == 2)
        let misses = b.api.cacheStatistics.misses
        #expect(try Self.get(onB, "Fenced/2").status == 200)
        #expect(b.api.cacheStatistics.misses == misses, "b did not serve version 2 from memory")
        #expect(!b.api.cachesFenced)

        b.stopFollowing()
        // The follower read every second: 3 s after its last read the fence is raised.
        #expect(try eventually(seconds: 10, { b.api.cachesFenced }, until: { $0 }), "b's fence never rose")
        let disabled = try Self.change(onA, "Fenced", 2, "disable", VersionStateAPITests.disable)
        // b's row went with its follower: only a is waited for.
        #expect(try Self.propagation(disabled) == Figures(1, 1, true), "\(disabled.bodyText)")
        let entries = b.api.cacheStatistics.entries
        #expect(entries > 0, "b's caches were emptied: the refusal below would prove nothing")
        #expect(try Self.get(onB, "Fenced/2").status == 404, "a replica with a stalled follower served a disabled version")
        #expect(try Self.get(onB, "Fenced/latest").json()["schema"]?["version"]?.int == 1)
        #expect(b.api.cacheStatistics.entries == entries, "nothing is kept while fenced")
    }

    /// The row is a heartbeat too: a follower whose timer reads the feed once a minute still
    /// writes it every second, so it stays live.
    @Test func aFollowerWritesItsRowEverySecondEvenWithoutReading() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let b = try TestRegistry(databaseURL: database, fallbackInterval: .seconds(60))
        defer { b.stop() }
        let psql = try PGConnection.connect(PostgresConfig(databaseURL: database))
        func seen() throws -> String {
            try psql.simpleQuery("SELECT seen_at::text FROM replica_feed_positions WHERE replica_id = '\(b.replicaID)'").rows.first?.string(0) ?? ""
        }
        let first = try seen()
        #expect(!first.isEmpty, "no row for \(b.replicaID)")
        #expect(try eventually(seconds: 5, { try seen() }, until: { $0 != first }) != first, "the row was not written again")
    }

    /// During a rolling deploy a replica may run against a database still without the table: its
    /// follower keeps its caches in step (nothing fenced), and a change answers, with
    /// `complete: false` since no position could be read.
    @Test func withoutThePositionsTableTheCachesStillFollowAndChangesStillAnswer() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let psql = try PGConnection.connect(PostgresConfig(databaseURL: database))
        try psql.simpleQuery("DROP TABLE replica_feed_positions")
        let a = try TestRegistry(databaseURL: database)
        let b = try TestRegistry(databaseURL: database)
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(b)
        #expect(try onA.publish("Early", Self.schema).status == 200)
        #expect(try eventually({ try Self.get(onB, "Early/1") }, until: { $0.status == 200 }).status == 200)
        let disabled = try Self.change(onA, "Early", 1, "disable", VersionStateAPITests.disable)
        #expect(disabled.status == 200, "\(disabled.bodyText)")
        #expect(try Self.propagation(disabled) == Figures(0, 0, false), "\(disabled.bodyText)")
        #expect(try eventually({ try Self.get(onB, "Early/1") }, until: { $0.status == 404 }).status == 404)
        #expect(!b.api.cachesFenced)
    }
}
