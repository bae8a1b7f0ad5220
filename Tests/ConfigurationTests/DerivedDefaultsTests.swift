import Foundation
import Testing

@testable import schema_registry

/// Defaults computed from other settings, and the cap on the waiting budgets.
@Suite struct DerivedDefaultsTests {
    static func parse(_ extra: [String: String]) throws(ConfigurationError) -> Configuration {
        try Configuration.fromEnvironment(["DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"].merging(extra) { $1 })
    }

    @Test func thePoolHasOneConnectionPerWorkerUnlessSet() throws {
        #expect(try Self.parse([:]).poolSize == 16)
        #expect(try Self.parse(["REGISTRY_HTTP_WORKERS": "7"]).poolSize == 7)
        #expect(try Self.parse(["REGISTRY_HTTP_WORKERS": "7", "REGISTRY_DB_POOL_SIZE": "3"]).poolSize == 3)
    }

    @Test func heavyRequestsAreOnePerCore() throws {
        #expect(try Self.parse([:]).maxHeavyRequests == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try Self.parse(["REGISTRY_MAX_HEAVY_REQUESTS": "9"]).maxHeavyRequests == 9)
    }

    @Test func waitingBudgetsAreAQuarterOfTheirConnections() throws {
        let byDefault = try Self.parse([:])
        #expect(byDefault.maxWaitingRequests == 250 && byDefault.maxWaitingPerAddress == 64)
        let set = try Self.parse(["REGISTRY_MAX_CONNECTIONS": "60", "REGISTRY_MAX_CONNECTIONS_PER_ADDRESS": "24"])
        #expect(set.maxWaitingRequests == 15 && set.maxWaitingPerAddress == 6)
    }

    @Test func waitingBudgetsAreAtMostHalfOfTheirConnections() throws {
        #expect(try Self.parse(["REGISTRY_MAX_WAITING_REQUESTS": "500"]).maxWaitingRequests == 500)
        #expect(try Self.parse(["REGISTRY_MAX_WAITING_PER_ADDRESS": "128"]).maxWaitingPerAddress == 128)
        let refusals = [
            (
                ["REGISTRY_MAX_WAITING_REQUESTS": "501"],
                "REGISTRY_MAX_WAITING_REQUESTS must be at most half of REGISTRY_MAX_CONNECTIONS (1000), so that short requests and probes keep the rest: at most 500, got 501"
            ),
            (
                ["REGISTRY_MAX_CONNECTIONS": "10", "REGISTRY_MAX_WAITING_REQUESTS": "6"],
                "REGISTRY_MAX_WAITING_REQUESTS must be at most half of REGISTRY_MAX_CONNECTIONS (10), so that short requests and probes keep the rest: at most 5, got 6"
            ),
            (
                ["REGISTRY_MAX_WAITING_PER_ADDRESS": "129"],
                "REGISTRY_MAX_WAITING_PER_ADDRESS must be at most half of REGISTRY_MAX_CONNECTIONS_PER_ADDRESS (256), so that short requests and probes keep the rest: at most 128, got 129"
            ),
        ]
        for (environment, message) in refusals {
            do {
                _ = try Self.parse(environment)
                Issue.record("\(environment) was accepted")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func connectionsWithoutALimitLeaveTheirBudgetUnbounded() throws {
        let unlimited = try Self.parse(["REGISTRY_MAX_CONNECTIONS_PER_ADDRESS": "0"])
        #expect(unlimited.maxWaitingPerAddress == 0)
        let large = try Self.parse(["REGISTRY_MAX_CONNECTIONS_PER_ADDRESS": "0", "REGISTRY_MAX_WAITING_PER_ADDRESS": "100000"])
        #expect(large.maxWaitingPerAddress == 100_000)
    }

    @Test func optionalSettingsStayUnsetUnlessGiven() throws {
        let byDefault = try Self.parse([:])
        #expect(byDefault.httpEventLoops == nil && byDefault.adminListen == nil)
        #expect(byDefault.auditRetentionDays == nil && byDefault.migrationsDirectory == nil)
        let set = try Self.parse([
            "REGISTRY_HTTP_EVENT_LOOPS": "2", "REGISTRY_ADMIN_LISTEN": ":9090", "REGISTRY_AUDIT_RETENTION_DAYS": "30",
            "REGISTRY_MIGRATIONS_DIR": "/srv/migrations", "REGISTRY_LISTEN": "[::1]:8081",
        ])
        #expect(set.httpEventLoops == 2 && set.auditRetentionDays == 30 && set.migrationsDirectory == "/srv/migrations")
        #expect(set.adminListen?.host == "0.0.0.0" && set.adminListen?.port == 9090)
        #expect(set.listenHost == "::1" && set.listenPort == 8081)
    }
}
