@testable import RegistryAPI
import Testing
import TestSupport

/// A diff of two texts is computed once: asked again, even for another type with the same two
/// texts, it is answered from memory with the same bytes, and with that request's own address.
@Suite struct DiffCacheAPITests {
    @Test func aDiffAskedAgainIsAnsweredFromMemoryWithItsOwnAddress() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        for type in ["CachedDiffA", "CachedDiffB"] {
            #expect(try tenant.publish(type, DiffAPITests.v1).status == 200)
            #expect(try tenant.publish(type, DiffAPITests.v2).status == 200)
        }
        let diffs = registry.api.caches.diffs
        let before = diffs.statistics
        let first = try tenant.request("GET", "/api/live_activity_schemas/CachedDiffA/2:diff?application=\(tenant.code)")
        let again = try tenant.request("GET", "/api/live_activity_schemas/CachedDiffA/2:diff?application=\(tenant.code)")
        let other = try tenant.request("GET", "/api/live_activity_schemas/CachedDiffB/2:diff?application=\(tenant.code)")
        #expect([first.status, again.status, other.status] == [200, 200, 200])
        #expect(again.body == first.body)
        #expect(try other.json()["attributes_type"] == .string("CachedDiffB"))
        #expect(try other.json()["changes"] == first.json()["changes"])
        let after = diffs.statistics
        #expect(after.hits - before.hits >= 2)
    }
}
