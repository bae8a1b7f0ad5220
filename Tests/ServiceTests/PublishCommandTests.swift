import Foundation
import Testing
import TestSupport

/// `schema-registry publish` against a live server: each exit status and what it prints.
@Suite struct PublishCommandTests {
    /// A server with a tenant, and a token file for it.
    private struct Setup {
        let server: ServiceProcess
        let tenant: Tenant
        let tokenFile: String
        var url: String { "http://127.0.0.1:\(server.port)" }
    }

    private func setUp() throws -> Setup {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        let tenant = try database.makeTenant(port: server.port)
        let tokenFile = temporaryFile(tenant.token + "\n")
        return Setup(server: server, tenant: tenant, tokenFile: tokenFile)
    }

    private func temporaryFile(_ contents: String) -> String {
        let path = NSTemporaryDirectory() + "publish-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    private func publish(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try ServiceProcess.run(["publish"] + arguments, environment: ServiceProcess.environment(environment), timeoutSeconds: 60)
    }

    private func common(_ setup: Setup, type: String = "FlightAttributes") -> [String] {
        ["--url", setup.url, "--token-file", setup.tokenFile, "--application", setup.tenant.code, "--type", type]
    }

    @Test func publishingFromSwiftThenFromAJSONSchemaPrintsEachVersionAndExits0() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        let swift = TestPaths.fixture("Swift/Flight.swift").path
        let first = try publish(common(setup) + ["--swift", swift])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdoutLines == ["1"], "\(first)")

        let schema = temporaryFile(flightSchema(marker: "from a file"))
        let second = try publish(common(setup, type: "OtherAttributes") + ["--schema", schema])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdoutLines == ["1"], "\(second)")

        // The token may come from the environment instead of a file.
        let viaEnvironment = try publish(
            ["--url", setup.url, "--application", setup.tenant.code, "--type", "OtherAttributes", "--schema", schema],
            environment: ["REGISTRY_TOKEN": setup.tenant.token])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment)")
        #expect(viaEnvironment.stdoutLines == ["2"], "\(viaEnvironment)")
    }

    @Test func labelsAndNotesAreStoredWithTheVersion() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        let schema = temporaryFile(flightSchema())
        let published = try publish(
            common(setup) + ["--schema", schema, "--label", "app_version=2.3.1", "--label", "team=checkout", "--notes", "First build"])
        #expect(published.status == 0, "\(published)")
        let got = try setup.tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/1?application=\(setup.tenant.code)").json()
        #expect(got["schema"]?["labels"] == ["app_version": "2.3.1", "team": "checkout"], "\(got)")
        #expect(got["schema"]?["release_notes"] == "First build")
        let malformed = try publish(common(setup) + ["--schema", schema, "--label", "no-equals"])
        #expect(malformed.status == 2, "\(malformed)")
    }

    @Test func ifChangedPrintsUnchangedWhenTheNewestVersionIsIdenticalAndPublishesOtherwise() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        let schema = temporaryFile(flightSchema())
        let first = try publish(common(setup) + ["--schema", schema, "--if-changed"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdoutLines == ["1"], "\(first)")
        let again = try publish(common(setup) + ["--schema", schema, "--if-changed"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdoutLines == ["1 unchanged"], "\(again)")
        // Another text is a change: published as the next version.
        let changed = try publish(common(setup) + ["--schema", temporaryFile(flightSchema(marker: "changed")), "--if-changed"])
        #expect(changed.status == 0, "\(changed)")
        #expect(changed.stdoutLines == ["2"], "\(changed)")
    }

    @Test func anIncompatibleSchemaUnderRequireCompatibleExits3ListingThePaths() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        #expect(try publish(common(setup) + ["--schema", temporaryFile(flightSchema())]).status == 0)
        let breaking = temporaryFile(
            #"{"type":"object","properties":{"gate":{"type":"integer"}},"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#)
        let refused = try publish(common(setup) + ["--schema", breaking, "--require-compatible"])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderrLines.contains { $0.hasPrefix("incompatible: ") && $0.contains("gate") }, "\(refused)")
        // Without --require-compatible it is published, with the problem as a warning.
        let warned = try publish(common(setup) + ["--schema", breaking])
        #expect(warned.status == 0, "\(warned)")
        #expect(warned.stdoutLines == ["2"])
        #expect(warned.stderrLines.contains { $0.hasPrefix("warning: ") && $0.contains("gate") }, "\(warned)")
    }

    @Test func aSchemaRuleFailureExits4() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        let invalid = try publish(common(setup) + ["--schema", temporaryFile(#"{"type":"array"}"#)])
        #expect(invalid.status == 4, "\(invalid)")
        #expect(invalid.stderrLines.first?.hasPrefix("invalid: ") == true, "\(invalid)")
        let swift = temporaryFile("import ActivityKit\nstruct FlightAttributes: ActivityAttributes {\n    var tags: Set<String>\n}\n")
        let unreadable = try publish(common(setup) + ["--swift", swift])
        #expect(unreadable.status == 4, "\(unreadable)")
        #expect(unreadable.stderrLines.first?.hasPrefix("\(swift):") == true, "\(unreadable)")
    }

    @Test(arguments: [
        ["--schema", "x.json"],
        ["--url", "ftp://host", "--application", "A", "--type", "T", "--schema", "x.json"],
        ["--url", "http://127.0.0.1:1", "--application", "A", "--type", "T", "--schema", "x.json", "--token", "secret"],
        ["--url", "http://127.0.0.1:1", "--application", "A", "--type", "T", "--schema", "x.json"],
        ["--url", "http://127.0.0.1:1", "--application", "A", "--type", "T", "--token-file", "/dev/null", "--schema", "x", "--swift", "y"],
    ])
    func usageMistakesExit2(arguments: [String]) throws {
        let result = try publish(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
    }

    @Test func aRefusedTokenOrAnUnreachableServerExits1() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        let schema = temporaryFile(flightSchema())
        let badToken = try publish(
            ["--url", setup.url, "--token-file", temporaryFile("not-a-token"), "--application", setup.tenant.code,
             "--type", "FlightAttributes", "--schema", schema])
        #expect(badToken.status == 1, "\(badToken)")
        #expect(badToken.stderr.contains("HTTP 401"), "\(badToken)")
        let port = try TestPorts.free()
        let unreachable = try publish(
            ["--url", "http://127.0.0.1:\(port)", "--token-file", setup.tokenFile, "--application", setup.tenant.code,
             "--type", "FlightAttributes", "--schema", schema])
        #expect(unreachable.status == 1, "\(unreachable)")
    }

    @Test func checkValuesExits0ForValidValuesAnd4NamingThePathOfABadOne() throws {
        let setup = try setUp()
        defer { setup.server.kill() }
        #expect(try publish(common(setup) + ["--schema", temporaryFile(flightSchema())]).status == 0)
        let target = ["--url", setup.url, "--token-file", setup.tokenFile, "--application", setup.tenant.code,
                      "--type", "FlightAttributes", "--version", "1", "--event", "update"]
        let valid = try ServiceProcess.run(
            ["check-values"] + target + [temporaryFile(#"{"contentState":{"gate":"B12"}}"#)], environment: ServiceProcess.environment([:]))
        #expect(valid.status == 0, "\(valid)")
        #expect(valid.stdoutLines == ["valid"])
        let invalid = try ServiceProcess.run(
            ["check-values"] + target + [temporaryFile(#"{"contentState":{"gate":12}}"#)], environment: ServiceProcess.environment([:]))
        #expect(invalid.status == 4, "\(invalid)")
        #expect(invalid.stderrLines.contains { $0.hasPrefix("error: content-state.gate: ") }, "\(invalid)")
    }
}
