import Foundation
import Testing
import TestSupport

/// `serve` refuses an unmigrated database; `migrate` applies once, is idempotent, and is safe
/// to run from several replicas at once.
@Suite struct MigrationTests {
    @Test func serveAgainstAnUnmigratedDatabaseExitsWithOneNotMigratedLine() throws {
        let database = try ServiceDatabase.make(migrated: false)
        let process = try ServiceProcess.spawn(["serve"], environment: serveEnvironment(database.url))
        defer { process.kill() }
        let status = process.waitForExit(timeoutSeconds: 15)
        #expect(status != nil && status != 0, "\(process.diagnostics)")
        #expect(process.stderrLines.count == 1, "\(process.diagnostics)")
        #expect(process.stderr.contains("not migrated"), "\(process.diagnostics)")
        #expect(process.stderr.contains("schema-registry migrate"), "it says what to run: \(process.diagnostics)")
        // Nothing was served: no start-up line.
        #expect(!process.stdout.contains("\"serving\""), "\(process.diagnostics)")
    }

    @Test func migrateAppliesThenASecondMigrateIsANoOp() throws {
        let database = try ServiceDatabase.make(migrated: false)
        let environment = ServiceProcess.environment(["DATABASE_URL": database.url])
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPostgres.migrationsDirectory)
            .filter { $0.hasSuffix(".sql") }
        #expect(files.count >= 1)

        let first = try ServiceProcess.run(["migrate"], environment: environment)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.isEmpty, "messages go to stderr: \(first)")
        #expect(first.stderrLines.count == files.count, "one line per applied migration: \(first)")
        let applied = try database.query("SELECT count(*) FROM schema_migrations")
        #expect(try applied.first?.string(0) == String(files.count))

        let second = try ServiceProcess.run(["migrate"], environment: environment)
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.isEmpty, "\(second)")
        #expect(second.stderrLines.count == 1, "\(second)")
        #expect(second.stderr.contains("up to date"), "\(second)")
        #expect(try database.query("SELECT count(*) FROM schema_migrations").first?.string(0) == String(files.count))

        // …and the server now starts on it and is ready.
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        let ready = try RawHTTPClient.send(port: server.port, target: "/readyz")
        #expect(ready.status == 200, "\(ready.bodyText)")
    }

    @Test func twoMigrateProcessesAtOnceBothSucceed() throws {
        let database = try ServiceDatabase.make(migrated: false)
        let environment = ServiceProcess.environment(["DATABASE_URL": database.url])
        let processes = try (0..<2).map { _ in try ServiceProcess.spawn(["migrate"], environment: environment) }
        defer { processes.forEach { $0.kill() } }
        for process in processes {
            let status = process.waitForExit(timeoutSeconds: 30)
            #expect(status == 0, "\(process.diagnostics)")
            #expect(process.stdout.isEmpty, "\(process.diagnostics)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPostgres.migrationsDirectory)
            .filter { $0.hasSuffix(".sql") }
        // Each migration applied exactly once between them.
        let applyLines = processes.flatMap { $0.stderrLines }.filter { $0.contains("applied") }
        #expect(applyLines.count == files.count, "\(processes.map(\.diagnostics))")
        #expect(try database.query("SELECT count(*) FROM schema_migrations").first?.string(0) == String(files.count))
        let server = try ServiceProcess.serve(environment: serveEnvironment(database.url))
        defer { server.kill() }
        #expect(try RawHTTPClient.send(port: server.port, target: "/readyz").status == 200)
    }

    @Test func serveAndMigrateRefuseAnAppliedMigrationEditedAfterwardsWithOneLineNamingTheFile() throws {
        let directory = NSTemporaryDirectory() + "edited-migrations-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: TestPostgres.migrationsDirectory, toPath: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try ServiceDatabase.make(migrated: false)
        let settings = ["REGISTRY_MIGRATIONS_DIR": directory]
        let environment = ServiceProcess.environment(settings.merging(["DATABASE_URL": database.url]) { $1 })
        #expect(try ServiceProcess.run(["migrate"], environment: environment).status == 0)

        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("0001_") }.first)
        let handle = try #require(FileHandle(forWritingAtPath: directory + "/" + file))
        handle.seekToEndOfFile()
        handle.write(Data("\n-- edited after it was applied\n".utf8))
        handle.closeFile()

        let process = try ServiceProcess.spawn(["serve"], environment: serveEnvironment(database.url, settings))
        defer { process.kill() }
        let status = process.waitForExit(timeoutSeconds: 15)
        #expect(status != nil && status != 0, "\(process.diagnostics)")
        #expect(process.stderrLines.count == 1, "\(process.diagnostics)")
        #expect(process.stderr.contains(file) && process.stderr.contains("edited"), "\(process.diagnostics)")
        #expect(!process.stdout.contains("\"serving\""), "\(process.diagnostics)")

        let migrate = try ServiceProcess.run(["migrate"], environment: environment)
        #expect(migrate.status != 0, "\(migrate)")
        #expect(migrate.stderrLines.count == 1 && migrate.stderr.contains(file), "\(migrate)")
    }
}
