import EventLoop
import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryPostgres

/// With no primary reachable but a standby answering, reads are served from the standby, writes
/// answer 503 "read-only" with `Retry-After`, and writes resume when a primary answers again,
/// without the pool being recreated. The "primary" is a private cluster stopped and started;
/// the "standby" is another database holding the same application.
@Suite struct ReadOnlyModeTests {
    struct Pair {
        let primary: TestPostgres
        let standby: Fixture
        let pool: ConnectionPool
        let store: PostgresSchemaStore
        let version: SchemaVersion
    }

    static func pair() async throws -> Pair {
        let primary = try TestPostgres.start()
        let standby = try Fixture()
        let version = try await standby.publish("ReadOnlyType")
        let pool = ConnectionPool(
            config: PostgresConfig(databaseURL: try primary.makeDatabase(), acquireTimeout: .seconds(2)),
            standby: PostgresConfig(databaseURL: standby.url))
        return Pair(primary: primary, standby: standby, pool: pool, store: PostgresSchemaStore(pool: pool), version: version)
    }

    @Test func blockingReadsGoToTheStandbyAndWritesSayReadOnlyUntilAPrimaryIsBack() async throws {
        let p = try await Self.pair()
        defer { try? p.primary.stop() }
        let application = p.standby.application
        #expect(p.pool.mode == .readWrite)

        try p.primary.stop()
        let read = try await p.store.schema(application: application, attributesType: "ReadOnlyType", version: p.version.version)
        #expect(read?.jsonSchema == p.version.jsonSchema)
        #expect(p.pool.mode == .readOnly)
        let refused = try await #require(throws: RegistryError.self) {
            try await p.store.delete(application: application, attributesType: "ReadOnlyType", version: 1, by: .cli)
        }
        #expect(refused == PGError.readOnly)
        #expect(refused.retryAfterSeconds == 2)

        try p.primary.start()
        // The primary's database lacks the standby's application: the delete finds nothing,
        // which proves it ran there.
        #expect(try await p.store.delete(application: application, attributesType: "ReadOnlyType", version: 1, by: .cli) == false)
        #expect(p.pool.mode == .readWrite)
    }

    @Test func loopReadsGoToTheStandbyAndLoopWritesSayReadOnly() async throws {
        let p = try await Self.pair()
        defer { try? p.primary.stop() }
        let (store, application, version) = (p.store, p.standby.application, p.version.version)
        let loop = try LoopThread()
        defer { loop.stop() }

        try p.primary.stop()
        let reads = loop.answers(10, of: SchemaVersion?.self) { _ in
            try await store.schema(application: application, attributesType: "ReadOnlyType", version: version)
        }
        #expect(reads.count == 10)
        for read in reads { #expect(try read.get()?.version == version) }
        let write = loop.answer(of: Bool.self) { 
            try await store.delete(application: application, attributesType: "ReadOnlyType", version: version, by: .cli)
        }
        #expect(registryError(write) == PGError.readOnly)
        #expect(p.pool.mode == .readOnly)

        try p.primary.start()
        let resumed = loop.answer(of: Bool.self) { 
            try await store.delete(application: application, attributesType: "ReadOnlyType", version: version, by: .cli)
        }
        #expect(try resumed.get() == false)
        #expect(p.pool.mode == .readWrite)
    }

    @Test func withoutAStandbyNothingAnswersAndWritesSayUnavailable() async throws {
        let primary = try TestPostgres.start()
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: try primary.makeDatabase()))
        try primary.stop()
        let refused = try await #require(throws: RegistryError.self) { try await PostgresSchemaStore(pool: pool).application(code: "ANY00-CODE0") }
        #expect(refused == .unavailable("database unavailable"))
        #expect(pool.mode == .unreachable)
    }
}
