import Foundation
import Registry
@testable import RegistryPostgres
import Testing
import TestSupport

/// A database restart or outage must cost a few 503s, never a hang and never a service restart.
@Suite struct RestartTests {
    @Test func poolWorksAgainAfterRestartWithoutBeingRecreated() async throws {
        let cluster = try TestPostgres.start()
        defer { try? cluster.stop() }
        let f = try Fixture(cluster: cluster, poolSize: 4)
        // Fill the pool with several idle sessions, all of which the restart will kill.
        let warm = onThreads(8) { _ in try blocking { try await f.publish("A").version } }
        #expect(warm.allSatisfy { (try? $0.get()) != nil })
        #expect(f.pool.stats.idle >= 2)

        try cluster.restart()

        // The first calls after the restart, a write and a read, both succeed.
        #expect(try await f.publish("A").version == 9)
        #expect(try await f.store.list(application: f.application, attributesType: "A", after: nil, limit: nil).count == 9)
        let parallel = onThreads(8) { _ in try blocking { try await f.publish("B").version } }
        #expect(parallel.allSatisfy { (try? $0.get()) != nil })
    }

    @Test func operationsFailWithUnavailableWithinBoundedTimeWhileStopped() async throws {
        let cluster = try TestPostgres.start()
        defer { try? cluster.stop() }
        let f = try Fixture(cluster: cluster, poolSize: 4)
        try await f.publish("A")

        try cluster.stop()
        let clock = ContinuousClock()
        for operation in ["publish", "read", "list", "delete"] {
            let started = clock.now
            let error = try await #require(throws: RegistryError.self, "\(operation)") {
                switch operation {
                case "publish": _ = try await f.publish("A")
                case "read": _ = try await f.store.schema(application: f.application, attributesType: "A", version: 1)
                case "list": _ = try await f.store.list(application: f.application, attributesType: nil, after: nil, limit: nil)
                default: _ = try await f.store.delete(application: f.application, attributesType: "A", version: 1, by: .cli)
                }
            }
            let elapsed = clock.now - started
            #expect(error == .unavailable("database unavailable"), "\(operation)")
            #expect(elapsed < .seconds(10), "\(operation) took \(elapsed)")
        }
        // Many callers at once while down: all get 503 in bounded time, none hangs.
        let started = clock.now
        let results = onThreads(16) { _ in try f.pool.run(PostgresSchemaStore.applicationRead(code: f.application.code)) }
        #expect(results.allSatisfy { registryError($0)?.code == .unavailable })
        #expect(clock.now - started < .seconds(10))

        try cluster.start()
        #expect(try await f.publish("A").version == 2)
        #expect(f.pool.stats.inUse == 0)
    }
}
