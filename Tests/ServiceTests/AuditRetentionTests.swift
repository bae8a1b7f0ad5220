import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// With REGISTRY_AUDIT_RETENTION_DAYS set, the service itself deletes older audit events (the
/// first pass runs a few seconds after start); without it, nothing is ever deleted.
@Suite struct AuditRetentionTests {
    @Test func theServicePrunesEventsPastTheRetentionAndKeepsTheRest() throws {
        let database = try ServiceDatabase.make()
        let owner = try database.makeTenant(port: 0)  // an application and a token: two events
        _ = try database.query("UPDATE audit_events SET at = now() - interval '8 days' WHERE action = 'application_create'")
        func actions() throws -> [String] {
            try database.query("SELECT action FROM audit_events WHERE account_id = \(owner.accountID) ORDER BY id").map { try $0.string(0) }
        }
        #expect(try actions() == ["application_create", "token_issue"])

        let keeping = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        Thread.sleep(forTimeInterval: 6.5)
        keeping.kill()
        #expect(try actions() == ["application_create", "token_issue"], "kept for ever by default")

        let pruning = try ServiceProcess.serve(environment: serveEnvironment(database.url, ["REGISTRY_AUDIT_RETENTION_DAYS": "7"]))
        defer { pruning.kill() }
        #expect(waitUntil(timeoutSeconds: 20) { (try? actions()) == ["token_issue"] }, "\(pruning.diagnostics)")
    }
}
