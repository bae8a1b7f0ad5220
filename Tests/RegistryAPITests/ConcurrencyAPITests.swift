import Foundation
import Registry
import Synchronization
import Testing
import TestSupport

/// Concurrent publishes over HTTP: correctness comes from the database, so it holds however the
/// requests interleave across workers (and, in ServiceTests, across processes).
@Suite struct ConcurrencyAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    func publishConcurrently(_ count: Int, version: Int?) -> [RawHTTPResponse] {
        let responses = Mutex<[RawHTTPResponse]>([])
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            if let response = try? tenant.publish("Concurrent\(version.map(String.init) ?? "")", SchemaAPITests.flight, version: version) {
                responses.withLock { $0.append(response) }
            }
        }
        return responses.withLock { $0 }
    }

    @Test func thirtyTwoParallelNextFreePublishesGetVersionsOneToThirtyTwo() throws {
        let responses = publishConcurrently(32, version: nil)
        #expect(responses.count == 32)
        #expect(responses.allSatisfy { $0.status == 200 })
        let versions = try responses.compactMap { try $0.json()["schema"]?["version"]?.integerLexemeValue }.sorted()
        #expect(versions == Array(1...32))
    }

    @Test func sixteenParallelPublishesOfOneVersionGiveOneSuccessAndFifteenConflicts() throws {
        let responses = publishConcurrently(16, version: 7)
        #expect(responses.count == 16)
        #expect(responses.filter { $0.status == 200 }.count == 1)
        #expect(responses.filter { $0.status == 409 }.count == 15)
    }
}
