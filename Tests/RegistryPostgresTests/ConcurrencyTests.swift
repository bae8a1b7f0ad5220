import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Several HTTP workers (and several replicas) publish at once; the numbering must come out
/// exactly right from the database's locks alone, without deadlocks.
@Suite struct ConcurrencyTests {
    @Test func thirtyTwoParallelNextFreePublishesGetVersionsOneToThirtyTwo() async throws {
        let f = try Fixture(poolSize: 8)
        let results = onThreads(32) { _ in try blocking { try await f.publish("FlightAttributes").version } }
        let versions = try results.map { try $0.get() }
        #expect(versions.sorted() == Array(1...32))
        let listed = try await f.store.list(application: f.application, attributesType: "FlightAttributes", after: nil, limit: nil)
        #expect(listed.map(\.version) == Array((1...32).reversed()))
        #expect(f.pool.stats.inUse == 0)
        #expect(f.pool.stats.open <= 8)
    }

    @Test func sixteenParallelPublishesOfOneExplicitVersionGiveOneSuccess() async throws {
        let f = try Fixture(poolSize: 16)
        let results = onThreads(16) { index in
            try blocking { try await f.publish("FlightAttributes", .explicit(7), #"{"type":"object","writer":\#(index)}"#) }
        }
        let successes = results.compactMap { try? $0.get() }
        #expect(successes.count == 1)
        let errors = results.compactMap(registryError)
        #expect(errors.count == 15)
        #expect(errors.allSatisfy { $0 == .alreadyExists("attributesType \"FlightAttributes\" version 7 already exists") })
        let stored = try await f.store.schema(application: f.application, attributesType: "FlightAttributes", version: 7)
        #expect(stored == successes.first)
        #expect(try await f.publish("FlightAttributes").version == 8)
    }

    @Test func mixedExplicitAndNextFreePublishesNeitherDeadlockNorCollide() async throws {
        let f = try Fixture(poolSize: 16)
        for round in 0..<3 {
            let type = "Mixed\(round)"
            // Even threads ask for versions 1...8 explicitly (each twice), odd ones for next free.
            let results = onThreads(32) { index -> Int32 in
                let request: VersionRequest = index % 2 == 0 ? .explicit(Int32(index / 4 + 1)) : .nextFree
                return try blocking { try await f.publish(type, request).version }
            }
            var versions: [Int32] = []
            for (index, result) in results.enumerated() {
                switch result {
                case .success(let version): versions.append(version)
                case .failure(let error):
                    // Only an explicit request may lose, and only to an existing version.
                    #expect(index % 2 == 0)
                    #expect((error as? RegistryError)?.code == .alreadyExists, "unexpected \(error)")
                }
            }
            #expect(Set(versions).count == versions.count, "a version was handed out twice")
            #expect(results.enumerated().filter { $0.offset % 2 == 1 }.allSatisfy { (try? $0.element.get()) != nil })
            let listed = try await f.store.list(application: f.application, attributesType: type, after: nil, limit: nil)
            #expect(Set(listed.map(\.version)) == Set(versions))
            // The counter ends at the highest version handed out.
            #expect(try await f.publish(type).version == (versions.max() ?? 0) + 1)
        }
    }

    @Test func parallelPublishesToDifferentTypesAllSucceed() async throws {
        let f = try Fixture(poolSize: 8)
        let results = onThreads(24) { index in try blocking { try await f.publish("Type\(index % 6)").version } }
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        for type in 0..<6 {
            let versions = try await f.store.list(application: f.application, attributesType: "Type\(type)", after: nil, limit: nil)
            #expect(versions.map(\.version) == [4, 3, 2, 1])
        }
    }
}
