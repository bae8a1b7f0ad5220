import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryPostgres

/// `replica_feed_positions`: what a propagation read makes of the rows, and their pruning.
@Suite struct ReplicaPositionsTests {
    static func insert(_ f: Fixture, _ id: String, position: String, secondsAgo: Int) throws {
        try f.pool.withConnection { connection in
            _ = try connection.simpleQuery(
                """
                INSERT INTO replica_feed_positions (replica_id, host, applied_position, seen_at)
                VALUES ('\(id)', 'host', \(position), now() - interval '\(secondsAgo) seconds')
                """)
        }
    }

    /// A row at a position taken after the change has applied it, one from before has not; the
    /// target is the position just after the change, given back for the next read.
    @Test func aPositionTakenAfterTheChangeHasAppliedItAndOneFromBeforeHasNot() async throws {
        let f = try Fixture()
        try Self.insert(f, "before", position: "pg_current_snapshot()", secondsAgo: 0)
        try await f.publish("Moved")
        let first = try f.pool.run(PostgresSchemaStore.positionsRead(after: nil))
        try Self.insert(f, "after", position: "pg_current_snapshot()", secondsAgo: 0)
        let again = try f.pool.run(PostgresSchemaStore.positionsRead(after: first.target))
        #expect(again.target == first.target)
        #expect(again.sightings.map(\.replicaID) == ["after", "before"])
        #expect(again.sightings.map(\.applied) == [true, false])
        #expect(Propagation(again.sightings) == Propagation(replicas: 2, applied: 1))
        // Later commits that add no event (the heartbeats themselves) hold nobody back.
        try f.pool.withConnection { connection in
            _ = try connection.simpleQuery("UPDATE replica_feed_positions SET seen_at = now() WHERE replica_id = 'after'")
        }
        #expect(try f.pool.run(PostgresSchemaStore.positionsRead(after: nil)).sightings.map(\.applied) == [true, false])
    }

    @Test func noRowIsOneTargetAndNoSighting() throws {
        let f = try Fixture()
        let read = try f.pool.run(PostgresSchemaStore.positionsRead(after: nil))
        #expect(!read.target.isEmpty && read.sightings.isEmpty)
    }

    @Test func rowsNotSeenForTheBoundArePrunedAndTheOthersKept() throws {
        let f = try Fixture()
        try Self.insert(f, "gone", position: "pg_current_snapshot()", secondsAgo: 7200)
        try Self.insert(f, "quiet", position: "pg_current_snapshot()", secondsAgo: 60)
        #expect(try f.store.pruneReplicaPositions(notSeenForSeconds: 3600) == 1)
        let left = try f.pool.run(PostgresSchemaStore.positionsRead(after: nil)).sightings
        #expect(left.map(\.replicaID) == ["quiet"])
        #expect(left.first.map { $0.millisecondsSinceSeen >= 60_000 } == true)
    }
}
