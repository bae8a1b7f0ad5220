import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Admin changes write one audit event each (actor `cli`) in their own transaction; failed
/// ones write none; pruning deletes only what is past the retention, batch by batch.
@Suite struct AuditLogTests {
    private func hash(_ seed: UInt8) -> [UInt8] { (0..<32).map { UInt8($0) &+ seed } }

    private func events(_ f: Fixture) async throws -> [AuditEvent] {
        try await f.store.auditEvents(AuditQuery(order: .oldestFirst, accountID: f.accountID, limit: 1000))
    }

    @Test func applicationCreationAndTokenIssueRevokeAndExpiryChangeWriteOneEventEach() async throws {
        let f = try Fixture()
        let created = try await events(f)
        #expect(created.map(\.action) == [.applicationCreate], "the fixture's application")
        #expect(created.first?.applicationCode == f.application.code && created.first?.actor == .cli)

        let id = try f.admin.issueToken(
            accountID: f.accountID, tokenHash: hash(1),
            terms: TokenTerms(scope: .publish, name: "deployer", applicationCodes: [f.application.code], lifetimeSeconds: 3600))
        #expect(try f.admin.setTokenExpiry(id: id, lifetimeSeconds: 7200))
        #expect(try f.admin.revokeToken(id: id))
        let all = try await events(f)
        #expect(all.map(\.action) == [.applicationCreate, .tokenIssue, .tokenExpiryChange, .tokenRevoke])
        let issued = all[1]
        #expect(issued.details["token"]?.integerLexemeValue == Int(id))
        #expect(issued.details["scope"] == "publish" && issued.details["name"] == "deployer")
        #expect(issued.details["applications"] == .array([.string(f.application.code)]))
        #expect(issued.details["expires"]?.stringValue != nil)
        #expect(all.allSatisfy { $0.actor == .cli && $0.tokenID == nil })
    }

    @Test func adminChangesThatFailWriteNoEvent() async throws {
        let f = try Fixture()
        let before = try await events(f).count
        _ = try f.admin.issueToken(accountID: f.accountID, tokenHash: hash(2))
        #expect(throws: RegistryError.self) { try f.admin.issueToken(accountID: f.accountID, tokenHash: hash(2)) }
        #expect(throws: RegistryError.self) {
            try f.admin.issueToken(accountID: f.accountID, tokenHash: hash(3), terms: TokenTerms(applicationCodes: ["NOPE1-NOPE2"]))
        }
        #expect(throws: RegistryError.self) {
            try f.admin.createApplication(accountID: f.accountID, code: f.application.code, name: "duplicate")
        }
        #expect(try !f.admin.revokeToken(id: 987_654))
        #expect(try !f.admin.setTokenExpiry(id: 987_654, lifetimeSeconds: 60))
        await #expect(try events(f).count == before + 1, "only the one token that was issued")
    }

    @Test func pruningDeletesOnlyEventsPastTheRetentionInBatches() async throws {
        let f = try Fixture()
        for seed in 10..<17 { _ = try f.admin.issueToken(accountID: f.accountID, tokenHash: hash(UInt8(seed))) }
        let all = try await events(f)
        #expect(all.count == 8)
        let old = all.prefix(5).map { String($0.id) }.joined(separator: ",")
        _ = try f.pool.withConnection { connection in
            try connection.simpleQuery("UPDATE audit_events SET at = now() - interval '31 days' WHERE id IN (\(old))")
        }
        #expect(try AuditLog.prune(olderThanDays: 30, batchSize: 2, pool: f.pool) == 5)
        await #expect(try events(f).map(\.id) == all.suffix(3).map(\.id))
        #expect(try AuditLog.prune(olderThanDays: 30, batchSize: 2, pool: f.pool) == 0)
    }
}
