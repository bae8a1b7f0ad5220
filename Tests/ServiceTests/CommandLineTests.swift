import Foundation
import Testing
import TestSupport

/// The binary's command line: configuration mistakes, `version`, `help`, `schema-from-swift`.
@Suite struct CommandLineTests {
    struct BadSetting: Sendable, CustomTestStringConvertible {
        let variable: String
        /// nil: the variable is left unset.
        let value: String?
        var testDescription: String { value.map { "\(variable)=\($0)" } ?? "\(variable) unset" }
    }

    static let badSettings = [
        BadSetting(variable: "REGISTRY_HTTP_WORKERS", value: "abc"),
        BadSetting(variable: "REGISTRY_HTTP_WORKERS", value: "0"),
        BadSetting(variable: "REGISTRY_LISTEN", value: "nonsense"),
        BadSetting(variable: "REGISTRY_LISTEN", value: "127.0.0.1:70000"),
        BadSetting(variable: "DATABASE_URL", value: nil),
        BadSetting(variable: "REGISTRY_LOG_LEVEL", value: "loud"),
        BadSetting(variable: "REGISTRY_ADMIN_LISTEN", value: "nowhere"),
        BadSetting(variable: "REGISTRY_DB_POOL_SIZE", value: "-1"),
        BadSetting(variable: "REGISTRY_DB_LOOP_SESSIONS", value: "17"),
        BadSetting(variable: "REGISTRY_SHUTDOWN_GRACE_SECONDS", value: "soon"),
        BadSetting(variable: "REGISTRY_CACHE_BYTES", value: "1e9"),
        // Waiters may hold at most half of the connections (1000, and 256 per address, by default).
        BadSetting(variable: "REGISTRY_MAX_WAITING_REQUESTS", value: "1000"),
        BadSetting(variable: "REGISTRY_MAX_WAITING_REQUESTS", value: "501"),
        BadSetting(variable: "REGISTRY_MAX_WAITING_PER_ADDRESS", value: "129"),
    ]

    @Test(arguments: badSettings)
    func badConfigurationExitsTwoWithOneLineNamingTheVariable(_ setting: BadSetting) throws {
        // Configuration is read before the database is touched, so the URL need not work.
        var overrides = ["DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"]
        overrides[setting.variable] = setting.value
        var environment = ServiceProcess.environment(overrides)
        if setting.value == nil { environment[setting.variable] = nil }
        let result = try ServiceProcess.run(["serve"], environment: environment, timeoutSeconds: 10)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains(setting.variable), "\(result)")
        if let value = setting.value {
            #expect(result.stderr.contains(value), "the line shows the bad value: \(result)")
        }
    }

    @Test func migrateAndAdminAlsoExitTwoWithoutDatabaseURL() throws {
        for arguments in [["migrate"], ["admin", "create-account", "someone"]] {
            let result = try ServiceProcess.run(arguments, environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains("DATABASE_URL"), "\(arguments): \(result)")
        }
    }

    @Test func unknownOrMissingCommandExitsTwoWithOneLine() throws {
        for arguments in [["frobnicate"], []] {
            let result = try ServiceProcess.run(arguments, environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result)")
        }
    }

    @Test func versionPrintsTheVersionOnStdout() throws {
        let result = try ServiceProcess.run(["version"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines.count == 1, "\(result)")
        let line = try #require(result.stdoutLines.first)
        #expect(line.hasPrefix("schema-registry "), "\(result)")
        #expect(line.contains(/\d+\.\d+\.\d+/), "a semantic version: \(result)")
    }

    @Test func versionAndBuildInfoNameTheGitCommit() throws {
        // `version` prints the build info (version and git commit), as `help` says.
        let result = try ServiceProcess.run(["version"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(result.stdout.contains(/\b[0-9a-f]{7,40}\b/), "a git commit in: \(result.stdout)")
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let metrics = try RawHTTPClient.send(port: server.port, target: "/metrics").bodyText
        let buildInfo = metrics.split(separator: "\n").first { $0.hasPrefix("registry_build_info{") }
        #expect(buildInfo?.contains(/commit="[0-9a-f]{7,40}"/) == true, "\(buildInfo ?? "no registry_build_info sample")")
    }

    @Test func helpListsEveryCommandAndEveryVariableTheBinaryReads() throws {
        let result = try ServiceProcess.run(["help"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        for command in [
            "serve", "migrate", "admin create-account", "admin create-application", "admin issue-token",
            "admin revoke-token", "admin list-applications", "admin list-tokens", "admin set-token-expiry", "admin audit",
            "schema-from-swift", "version", "help",
        ] {
            #expect(result.stdout.contains(command), "help mentions \(command)")
        }
        // Every variable the configuration code reads, found in its source so a new one cannot
        // be forgotten in the help.
        let source = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/schema-registry/Configuration.swift"),
            encoding: .utf8)
        let read = Set(source.matches(of: /"((?:REGISTRY_|DATABASE_)[A-Z_]+)"/).map { String($0.output.1) })
        #expect(read.count >= 15, "found the variables in Configuration.swift: \(read.sorted())")
        for variable in read.sorted() {
            #expect(result.stdout.contains(variable), "help lists \(variable)")
        }
    }

    @Test func schemaFromSwiftPrintsASchemaTheRunningServerAccepts() throws {
        let database = try ServiceDatabase.make()
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let tenant = try database.makeTenant(port: server.port)
        let fixtures = [
            ("Flight.swift", "FlightAttributes"), ("RideHailing.swift", "RideHailingAttributes"),
            ("DecodingShapes", "DeliveryAttributes"), ("DecodingShapes", "MatchAttributes"),
        ]
        for (file, type) in fixtures {
            let path = TestPaths.fixture("Swift/\(file)").path
            let result = try ServiceProcess.run(
                ["schema-from-swift", path, "--type", type], environment: ServiceProcess.environment([:]),
                timeoutSeconds: 10)
            #expect(result.status == 0, "\(file): \(result)")
            #expect(result.stderr.isEmpty, "\(file): \(result)")
            let response = try tenant.publish(type, result.stdout)
            #expect(response.status == 200, "\(file): \(response.status) \(response.bodyText)")
            #expect(response.schemaVersion == 1, "\(file): \(response.bodyText)")
        }
    }

    @Test func schemaFromSwiftReadsADirectoryAndNamesTheFileOfAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Shared"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "struct Order: ActivityAttributes {\n    struct ContentState: Codable, Hashable { var stage: Stage }\n}\n"
            .write(to: directory.appendingPathComponent("Order.swift"), atomically: true, encoding: .utf8)
        try "extension Order {\n    enum Stage: String, Codable { case placed, done }\n}\n"
            .write(to: directory.appendingPathComponent("Shared/Stage.swift"), atomically: true, encoding: .utf8)
        let result = try ServiceProcess.run(
            ["schema-from-swift", directory.path, "--type", "Order"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#""enum": ["placed", "done"]"#), "\(result)")

        let broken = directory.appendingPathComponent("Shared/Tags.swift")
        try "\ntypealias Stage = Set<String>\n".write(to: broken, atomically: true, encoding: .utf8)
        try "extension Order {}\n".write(to: directory.appendingPathComponent("Shared/Stage.swift"), atomically: true, encoding: .utf8)
        let failure = try ServiceProcess.run(
            ["schema-from-swift", directory.path, "--type", "Order"], environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(failure.status == 1, "\(failure)")
        #expect(failure.stdout.isEmpty, "\(failure)")
        #expect(failure.stderr.contains("\(broken.path): line 2: unsupported type 'Set<String>' for property 'stage'"), "\(failure)")
    }

    @Test func schemaFromSwiftFailsOnAMissingFileOrType() throws {
        let missing = try ServiceProcess.run(
            ["schema-from-swift", "/nonexistent/Nothing.swift", "--type", "FlightAttributes"],
            environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(missing.status != 0, "\(missing)")
        #expect(missing.stdout.isEmpty, "\(missing)")
        #expect(missing.stderr.contains("/nonexistent/Nothing.swift"), "\(missing)")

        let unknownType = try ServiceProcess.run(
            ["schema-from-swift", TestPaths.fixture("Swift/Flight.swift").path, "--type", "NoSuchAttributes"],
            environment: ServiceProcess.environment([:]), timeoutSeconds: 10)
        #expect(unknownType.status != 0, "\(unknownType)")
        #expect(unknownType.stdout.isEmpty, "\(unknownType)")
        #expect(!unknownType.stderr.isEmpty, "\(unknownType)")
    }
}
