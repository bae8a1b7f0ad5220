import Registry
import RegistryAPI
import Testing
import TestSupport

/// Issue 5's caches over HTTP: ETags and 304s, invalidation on every replica, lookups bounded
/// in time.
@Suite struct CachingAPITests {
    @Test func getAndFormCarryAStrongETagAndAnswer304WhenItMatches() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("Tagged", SchemaAPITests.flight)
        for path in ["/api/live_activity_schemas/Tagged/1", "/api/live_activity_schemas/Tagged/1/form"] {
            let first = try tenant.request("GET", "\(path)?application=\(tenant.code)")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            #expect(first.header("Cache-Control") == "private, no-cache")
            let again = try tenant.request("GET", "\(path)?application=\(tenant.code)", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let other = try tenant.request("GET", "\(path)?application=\(tenant.code)", headers: [("If-None-Match", "\"x\"")])
            #expect(other.status == 200)
            #expect(other.body == first.body)
        }
    }

    @Test func deleteOnOneReplicaInvalidatesTheCacheOfAnother() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database)
        let b = try TestRegistry(databaseURL: database)
        defer { a.stop(); b.stop() }
        let tenantA = try a.makeTenant()
        let tenantB = Tenant(port: b.port, code: tenantA.code, token: tenantA.token, accountID: tenantA.accountID, tokenID: tenantA.tokenID)
        _ = try tenantA.publish("Shared", SchemaAPITests.flight)
        let path = "/api/live_activity_schemas/Shared/1?application=\(tenantA.code)"
        #expect(try tenantB.request("GET", path).status == 200)
        #expect(try tenantB.request("GET", path).status == 200)
        #expect(try tenantA.request("DELETE", path).status == 200)
        let deadline = ContinuousClock.now + .seconds(5)
        var status = 200
        while ContinuousClock.now < deadline {
            status = try tenantB.request("GET", path).status
            if status == 404 { break }
        }
        #expect(status == 404, "replica B kept serving a deleted version")
    }

    @Test func revokedTokenIsRefusedWithinTheLookupCacheBound() throws {
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), caching: CacheSettings(responseBytes: 1 << 20, lookupSeconds: 2))
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        let path = "/api/live_activity_schemas?application=\(tenant.code)"
        #expect(try tenant.request("GET", path).status == 200)
        try registry.revoke(tenant)
        let revoked = ContinuousClock.now
        while try tenant.request("GET", path).status == 200 {
            #expect(ContinuousClock.now - revoked < .seconds(3), "revocation not seen within the 2 s bound")
            if ContinuousClock.now - revoked > .seconds(3) { break }
        }
    }
}
