import Foundation
import Testing
import TestSupport

/// `schema-registry admin …` is scriptable: each action prints only its result on stdout.
@Suite struct AdminCommandTests {
    func admin(_ database: ServiceDatabase, _ arguments: [String]) throws -> CommandResult {
        try ServiceProcess.run(
            ["admin"] + arguments, environment: ServiceProcess.environment(["DATABASE_URL": database.url]),
            timeoutSeconds: 15)
    }

    /// The only line of stdout, after checking the command succeeded and printed nothing else.
    func onlyLine(_ result: CommandResult, _ what: String) throws -> String {
        #expect(result.status == 0, "\(what): \(result)")
        #expect(result.stdoutLines.count == 1, "\(what): \(result)")
        return try #require(result.stdoutLines.first, "\(what): \(result)")
    }

    @Test func createAccountApplicationAndTokenPrintOnlyTheirResults() throws {
        let database = try ServiceDatabase.make()
        let account = try onlyLine(try admin(database, ["create-account", "Acme Airlines"]), "create-account")
        #expect(account.wholeMatch(of: /[0-9]+/) != nil, "only an id: \(account)")

        let generated = try onlyLine(
            try admin(database, ["create-application", "--account", account, "--name", "Acme iOS"]), "create-application")
        #expect(generated.wholeMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/) != nil, "a generated code: \(generated)")

        let given = try onlyLine(
            try admin(database, ["create-application", "--account", account, "--code", "ACME1-TEST2"]),
            "create-application --code")
        #expect(given == "ACME1-TEST2")

        let token = try onlyLine(try admin(database, ["issue-token", "--account", account]), "issue-token")
        #expect(token.wholeMatch(of: /\S{20,}/) != nil, "only the token: \(token)")

        let applications = try admin(database, ["list-applications", "--account", account])
        #expect(applications.status == 0, "\(applications)")
        #expect(applications.stdoutLines.count == 2, "\(applications)")
        #expect(applications.stdout.contains(generated) && applications.stdout.contains("ACME1-TEST2"), "\(applications)")

        // The token works against a running server, for the application made here.
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = Tenant(port: server.port, code: generated, token: token, accountID: Int64(account)!, tokenID: 0)
        let published = try tenant.publish("FlightAttributes", flightSchema())
        #expect(published.status == 200, "\(published.bodyText)")
    }

    @Test func listTokensShowsIdsAndDatesButNeverTheSecret() throws {
        let database = try ServiceDatabase.make()
        let account = try onlyLine(try admin(database, ["create-account", "lister"]), "create-account")
        let secrets = try (0..<2).map { _ in
            try onlyLine(try admin(database, ["issue-token", "--account", account]), "issue-token")
        }
        let listing = try admin(database, ["list-tokens", "--account", account])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdoutLines.count == 2, "\(listing)")
        for line in listing.stdoutLines {
            let fields = line.split(separator: "\t").map(String.init)
            #expect(fields.first.flatMap { Int64($0) } != nil, "starts with the token id: \(line)")
            #expect(line.contains(/\d{4}-\d{2}-\d{2}/), "shows the creation date: \(line)")
        }
        for secret in secrets {
            #expect(!listing.stdout.contains(secret), "list-tokens must never print a secret")
            #expect(!listing.stderr.contains(secret), "list-tokens must never print a secret")
        }
    }

    @Test func revokedTokenGets401FromARunningServer() throws {
        let database = try ServiceDatabase.make()
        // Production defaults, including the short lookup cache: revocation must still reach
        // the running server (through its change notifications) within seconds.
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let account = try onlyLine(try admin(database, ["create-account", "revoker"]), "create-account")
        let code = try onlyLine(try admin(database, ["create-application", "--account", account]), "create-application")
        let token = try onlyLine(try admin(database, ["issue-token", "--account", account]), "issue-token")
        let tenant = Tenant(port: server.port, code: code, token: token, accountID: Int64(account)!, tokenID: 0)
        let before = try tenant.request("GET", "/api/live_activity_schemas?application=\(code)")
        #expect(before.status == 200, "\(before.bodyText)")

        let listing = try admin(database, ["list-tokens", "--account", account])
        let tokenID = try #require(listing.stdoutLines.first?.split(separator: "\t").first.map(String.init), "\(listing)")
        let revoked = try admin(database, ["revoke-token", tokenID])
        #expect(revoked.status == 0, "\(revoked)")
        #expect(revoked.stdout.isEmpty, "revoke-token prints its message on stderr: \(revoked)")

        let clock = ContinuousClock()
        let started = clock.now
        var status = 0
        while clock.now - started < .seconds(5) {
            status = try tenant.request("GET", "/api/live_activity_schemas?application=\(code)").status
            if status == 401 { break }
            usleep(50_000)
        }
        #expect(status == 401, "the revoked token is refused within seconds (REGISTRY_AUTH_CACHE_SECONDS is 2)")
        let after = try tenant.request("GET", "/api/live_activity_schemas?application=\(code)")
        #expect(after.status == 401 && after.errorCode == 16, "\(after.bodyText)")
        #expect(revoked.stderr.contains(tokenID), "\(revoked)")

        let listed = try admin(database, ["list-tokens", "--account", account])
        #expect(listed.stdoutLines.count == 1 && !listed.stdoutLines[0].hasSuffix("\t-"), "shows the revocation: \(listed)")
        let again = try admin(database, ["revoke-token", tokenID])
        #expect(again.status != 0, "revoking twice is an error: \(again)")
        #expect(again.stdout.isEmpty && !again.stderr.isEmpty, "\(again)")
    }

    @Test func unknownAccountExitsNonZeroWithAMessageOnStderr() throws {
        let database = try ServiceDatabase.make()
        for arguments in [
            ["create-application", "--account", "987654321"], ["issue-token", "--account", "987654321"],
        ] {
            let result = try admin(database, arguments)
            #expect(result.status != 0, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains("987654321"), "names the account: \(arguments): \(result)")
        }
        let revokeUnknown = try admin(database, ["revoke-token", "987654321"])
        #expect(revokeUnknown.status != 0, "\(revokeUnknown)")
        #expect(revokeUnknown.stdout.isEmpty && !revokeUnknown.stderr.isEmpty, "\(revokeUnknown)")
        let missingAccount = try admin(database, ["issue-token"])
        #expect(missingAccount.status == 2, "\(missingAccount)")
        #expect(missingAccount.stderr.contains("--account"), "\(missingAccount)")
    }
}
