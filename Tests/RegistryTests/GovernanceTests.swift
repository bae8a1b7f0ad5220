import Registry
import Testing

/// The pure rules of scopes, token grants, audit actors and RFC 3339 filter times.
@Suite struct GovernanceTests {
    static func grant(scope: TokenScope, applications: [Int64]? = nil, expiresAt: Double? = nil, name: String = "") -> TokenGrant {
        TokenGrant(
            id: 7, accountID: 1, scope: scope, name: name, applicationIDs: applications, applicationCodes: nil,
            expiresAt: expiresAt, expires: nil)
    }

    @Test(arguments: [
        (TokenScope.read, TokenScope.read, true), (.read, .publish, false), (.read, .admin, false),
        (.publish, .read, true), (.publish, .publish, true), (.publish, .admin, false),
        (.admin, .read, true), (.admin, .publish, true), (.admin, .admin, true),
    ])
    func aScopeIncludesTheOnesBelowIt(has: TokenScope, needs: TokenScope, allowed: Bool) {
        let refusal = Permission(needs, "doing it").refusal(for: Self.grant(scope: has))
        #expect((refusal == nil) == allowed)
        if let refusal {
            #expect(refusal.code == .permissionDenied)
            #expect(refusal.message == "this token has scope \(has.rawValue); doing it needs \(needs.rawValue)")
        }
    }

    @Test func aGrantReachesOnlyItsAccountAndItsApplications() {
        let mine = Application(id: 10, code: "MINE1-AAAAA", name: "", accountID: 1, created: "")
        let sibling = Application(id: 11, code: "MINE2-AAAAA", name: "", accountID: 1, created: "")
        let foreign = Application(id: 12, code: "THEIR-AAAAA", name: "", accountID: 2, created: "")
        let unlimited = Self.grant(scope: .read)
        #expect(unlimited.reaches(mine) && unlimited.reaches(sibling) && !unlimited.reaches(foreign))
        let limited = Self.grant(scope: .read, applications: [10])
        #expect(limited.reaches(mine) && !limited.reaches(sibling) && !limited.reaches(foreign))
    }

    @Test func aGrantExpiresAtItsExpiryNotBefore() {
        let grant = Self.grant(scope: .read, expiresAt: 1_000)
        #expect(!grant.isExpired(now: 999.9))
        #expect(grant.isExpired(now: 1_000))
        #expect(!Self.grant(scope: .read).isExpired(now: .greatestFiniteMagnitude))
    }

    @Test func createdByIsTheTokenNameOrItsIdAndNothingForTheCLI() {
        #expect(AuditActor(kind: .token, tokenID: 7, tokenName: "ci", requestID: "r").createdBy == "ci")
        #expect(AuditActor(kind: .token, tokenID: 7, tokenName: "", requestID: nil).createdBy == "token 7")
        #expect(AuditActor.cli.createdBy == nil)
    }

    @Test func auditActionsAreTheDatabaseNames() throws {
        #expect(AuditAction.allCases.map(\.rawValue) == [
            "publish", "delete", "policy_change", "token_issue", "token_revoke", "token_expiry_change", "application_create", "import",
            "state_change", "latest_pin", "metadata_change", "webhook_create", "webhook_update", "webhook_delete",
            "webhook_rotate_secret", "webhook_redeliver", "webhook_disable",
        ])
        #expect(try AuditAction.parse("token_revoke", field: "action") == .tokenRevoke)
        #expect(throws: RegistryError.self) { try AuditAction.parse("tokenRevoke", field: "action") }
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0), ("2026-09-01T10:00:00Z", 1_788_256_800.0), ("2026-09-01T12:00:00+02:00", 1_788_256_800.0),
        ("2026-09-01T10:00:00.5Z", 1_788_256_800.5),
    ])
    func filterTimesAreRFC3339(text: String, seconds: Double) throws {
        #expect(try RFC3339Time.unixSeconds(text, field: "since") == seconds)
    }

    @Test(arguments: ["yesterday", "2026-09-01", "2026-09-01 10:00:00Z", "2026-02-30T00:00:00Z", "2026-09-01T10:00:00", ""])
    func otherTimesAreA400NamingTheField(text: String) {
        #expect(throws: RegistryError.self) { try RFC3339Time.unixSeconds(text, field: "until") }
        do {
            _ = try RFC3339Time.unixSeconds(text, field: "until")
        } catch {
            #expect(error.message.hasPrefix("until:"))
        }
    }
}
