import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Revocation, expiry and scope changes reach every replica within the lookup-cache bound
/// (REGISTRY_AUTH_CACHE_SECONDS, 2 by default), through the change notification.
@Suite struct TokenReplicaTests {
    @Test func revocationExpiryAndScopeChangesReachBothReplicasWithinTheCacheBound() throws {
        let database = try ServiceDatabase.make()
        let servers = try ReplicaTests.replicas(database)
        defer { servers.forEach { $0.kill() } }
        let owner = try database.makeTenant(port: servers[0].port)
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: database.url, poolSize: 1))
        defer { pool.close() }
        let admin = AdminStore(pool: pool)
        let revoked = try admin.tenant(like: owner, terms: TokenTerms(scope: .publish, name: "to revoke"))
        let expiring = try admin.tenant(like: owner, terms: TokenTerms(scope: .publish, name: "to expire"))
        let demoted = try admin.tenant(like: owner, terms: TokenTerms(scope: .publish, name: "to demote"))

        func publishStatus(_ tenant: Tenant, on port: Int) throws -> Int {
            try tenant.on(port: port).publish("Replicated", flightSchema()).status
        }
        // Every token works on both replicas, and both have cached its lookup.
        for tenant in [revoked, expiring, demoted] {
            for server in servers { #expect(try publishStatus(tenant, on: server.port) == 200) }
        }

        let changed = Date()
        #expect(try admin.revokeToken(id: revoked.tokenID))
        #expect(try admin.setTokenExpiry(id: expiring.tokenID, lifetimeSeconds: 1))
        _ = try database.query("UPDATE api_tokens SET scope = 'read' WHERE id = \(demoted.tokenID)")

        for server in servers {
            #expect(waitUntil(timeoutSeconds: 5) { (try? publishStatus(revoked, on: server.port)) == 401 }, "revocation on \(server.port)")
            #expect(waitUntil(timeoutSeconds: 5) { (try? publishStatus(expiring, on: server.port)) == 401 }, "expiry on \(server.port)")
            #expect(waitUntil(timeoutSeconds: 5) { (try? publishStatus(demoted, on: server.port)) == 403 }, "scope on \(server.port)")
        }
        let took = Date().timeIntervalSince(changed)
        #expect(took < 4.5, "every change was honoured within the 2-second cache bound plus a margin, took \(took) s")
        // The demoted token still reads.
        let read = try demoted.on(port: servers[1].port).request("GET", "/api/live_activity_schemas?application=\(owner.code)")
        #expect(read.status == 200, "\(read.bodyText)")
    }
}
