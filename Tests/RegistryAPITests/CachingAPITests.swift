import Registry
import RegistryAPI
import Testing
import TestSupport

/// The response and lookup caches over HTTP: ETags and 304s, invalidation on every replica,
/// lookups bounded in time.
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

    @Test func tagsComeFromTheStoredContentHashSoCachedAndUncachedReplicasAgree() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let cached = try TestRegistry(databaseURL: database, caching: CacheSettings(responseBytes: 1 << 20, entityTagSalt: "build 1"))
        let uncached = try TestRegistry(databaseURL: database, caching: CacheSettings(responseBytes: 0, entityTagSalt: "build 1"))
        let nextBuild = try TestRegistry(databaseURL: database, caching: CacheSettings(responseBytes: 0, entityTagSalt: "build 2"))
        defer { cached.stop(); uncached.stop(); nextBuild.stop() }
        let tenant = try cached.makeTenant()
        let on = { (registry: TestRegistry) in
            Tenant(port: registry.port, code: tenant.code, token: tenant.token, accountID: tenant.accountID, tokenID: tenant.tokenID)
        }
        _ = try tenant.publish("Hashed", SchemaAPITests.flight)
        func tag(_ registry: TestRegistry, _ path: String) throws -> String {
            try #require(try on(registry).request("GET", "\(path)?application=\(tenant.code)").header("ETag"))
        }
        let version1 = "/api/live_activity_schemas/Hashed/1"
        for path in [version1, version1 + "/form"] {
            #expect(try tag(cached, path) == tag(uncached, path))
            #expect(try tag(cached, path) == tag(cached, path))
            // Another build may render other bytes: it must never answer 304 for the old ones.
            #expect(try tag(cached, path) != tag(nextBuild, path))
        }
        #expect(try tag(cached, version1) != tag(cached, version1 + "/form"))
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
