import Foundation
import Registry
import Testing
import TestSupport

/// `admin issue-token` options, `list-tokens` columns, `set-token-expiry` and `admin audit`.
extension AdminCommandTests {
    @Test func issueTokenTakesScopeApplicationsNameAndExpiryAndListTokensShowsThem() throws {
        let database = try ServiceDatabase.make()
        let account = try onlyLine(try admin(database, ["create-account", "scoped"]), "create-account")
        let code = try onlyLine(try admin(database, ["create-application", "--account", account]), "create-application")
        let issued = try admin(
            database,
            ["issue-token", "--account", account, "--scope", "read", "--application", code, "--name", "dashboards", "--expires-in", "90d"])
        let secret = try onlyLine(issued, "issue-token")
        #expect(issued.stderr.contains("scope read"), "states the scope: \(issued)")
        let plain = try admin(database, ["issue-token", "--account", account])
        _ = try onlyLine(plain, "issue-token without options")
        #expect(plain.stderr.contains("scope admin"), "the default scope is admin and is stated: \(plain)")

        let listing = try admin(database, ["list-tokens", "--account", account])
        #expect(listing.status == 0 && listing.stdoutLines.count == 2, "\(listing)")
        let fields = listing.stdoutLines[0].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 9, "\(fields)")
        #expect(fields[1] == account && fields[2] == "read" && fields[3] == code && fields[4] == "dashboards", "\(fields)")
        #expect(fields[5].wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil && fields[6].wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil, "\(fields)")
        #expect(fields[5] < fields[6], "expires after it was created: \(fields)")
        #expect(fields[7] == "-" && fields[8] == "-", "never used, not revoked: \(fields)")
        let unlimited = listing.stdoutLines[1].split(separator: "\t").map(String.init)
        #expect(unlimited[2] == "admin" && unlimited[3] == "*" && unlimited[4] == "-" && unlimited[6] == "-", "\(unlimited)")
        #expect(!listing.stdout.contains(secret))

        let changed = try admin(database, ["set-token-expiry", fields[0], "--expires-in", "never"])
        #expect(changed.status == 0 && changed.stdout.isEmpty, "\(changed)")
        let relisted = try admin(database, ["list-tokens", "--account", account])
        #expect(relisted.stdoutLines[0].split(separator: "\t").map(String.init)[6] == "-", "\(relisted)")
    }

    @Test func issueTokenRefusesBadScopeExpiryAndForeignApplications() throws {
        let database = try ServiceDatabase.make()
        let account = try onlyLine(try admin(database, ["create-account", "strict"]), "create-account")
        for (arguments, mentioning) in [
            (["--scope", "owner"], "--scope"), (["--expires-in", "90"], "--expires-in"), (["--expires-in", "0d"], "--expires-in"),
            (["--expires-in", "99999d"], "--expires-in"),
        ] {
            let result = try admin(database, ["issue-token", "--account", account] + arguments)
            #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains(mentioning), "\(arguments): \(result)")
        }
        let foreign = try admin(database, ["issue-token", "--account", account, "--application", "NOPE1-NOPE2"])
        #expect(foreign.status != 0 && foreign.stdout.isEmpty && foreign.stderr.contains("NOPE1-NOPE2"), "\(foreign)")
        let tokens = try admin(database, ["list-tokens", "--account", account])
        #expect(tokens.stdoutLines.isEmpty, "no token was issued: \(tokens)")
    }

    @Test func auditPrintsOneJSONObjectPerLineOldestFirst() throws {
        let database = try ServiceDatabase.make()
        let account = try onlyLine(try admin(database, ["create-account", "audited"]), "create-account")
        let code = try onlyLine(try admin(database, ["create-application", "--account", account]), "create-application")
        _ = try onlyLine(try admin(database, ["issue-token", "--account", account, "--name", "ci"]), "issue-token")
        let other = try onlyLine(try admin(database, ["create-account", "elsewhere"]), "create-account")
        _ = try onlyLine(try admin(database, ["create-application", "--account", other]), "create-application")

        let audit = try admin(database, ["audit", "--account", account])
        #expect(audit.status == 0 && audit.stdoutLines.count == 2, "\(audit)")
        let events = try audit.stdoutLines.map { try JSONParser.parse($0) }
        #expect(events.map { $0["action"]?.stringValue } == ["application_create", "token_issue"])
        #expect(events[0]["application"]?.stringValue == code && events[0]["actor"] == "cli")
        #expect(events[1]["details"]?["name"] == "ci")
        #expect(events.allSatisfy { $0["account_id"]?.integerLexemeValue == Int(account) })

        #expect(try admin(database, ["audit"]).stdoutLines.count == 3, "every account without --account")
        #expect(try admin(database, ["audit", "--account", account, "--since", "1h"]).stdoutLines.count == 2)
        let future = try admin(database, ["audit", "--account", account, "--since", "2999-01-01T00:00:00Z"])
        #expect(future.status == 0 && future.stdout.isEmpty, "\(future)")
        let bad = try admin(database, ["audit", "--since", "yesterday"])
        #expect(bad.status == 2 && bad.stderr.contains("--since"), "\(bad)")
    }
}
