import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

@Suite struct MigratorTests {
    private func emptyDatabasePool() throws -> ConnectionPool {
        let url = try TestPostgres.shared.makeDatabase(migrated: false)
        return ConnectionPool(config: PostgresConfig(databaseURL: url, poolSize: 2))
    }

    private func temporaryDirectory(_ files: [String: String]) throws -> String {
        let directory = NSTemporaryDirectory() + "migrations-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test func migratingTwiceIsANoOp() throws {
        let pool = try emptyDatabasePool()
        let migrator = Migrator(pool: pool, directory: TestPostgres.migrationsDirectory)
        let shipped = try migrator.available().map(\.version)
        #expect(shipped.first == 1)
        #expect(shipped == Array(1...shipped.count), "migrations are numbered without gaps")
        let before = try migrator.status()
        #expect(before.applied.isEmpty)
        #expect(before.available.map(\.version) == shipped)
        #expect(!before.isUpToDate)
        #expect(before.problem == "database is not migrated: run `schema-registry migrate` (applied 0 of \(shipped.count))")

        let first = try migrator.migrate()
        #expect(first.map(\.version) == shipped)
        #expect(first.first?.name == "initial")
        #expect(try migrator.migrate().isEmpty)

        let after = try migrator.status()
        #expect(after.isUpToDate)
        #expect(after.problem == nil)
        #expect(after.applied.map(\.version) == shipped)
        #expect(after.applied.first?.appliedAt.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
    }

    @Test func concurrentMigrateCallsDoNotRace() throws {
        let url = try TestPostgres.shared.makeDatabase(migrated: false)
        // Separate pools, as separate replicas would have.
        let results = onThreads(6) { _ in
            let pool = ConnectionPool(config: PostgresConfig(databaseURL: url, poolSize: 1))
            defer { pool.close() }
            return try Migrator(pool: pool, directory: TestPostgres.migrationsDirectory).migrate().map(\.version)
        }
        let applied = try results.map { try $0.get() }
        let shipped = try Migrator(pool: ConnectionPool(config: PostgresConfig(databaseURL: url, poolSize: 1)),
                                   directory: TestPostgres.migrationsDirectory).available().map(\.version)
        #expect(applied.flatMap { $0 } == shipped, "exactly one caller applies each migration")
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: url, poolSize: 1))
        #expect(try Migrator(pool: pool, directory: TestPostgres.migrationsDirectory).status().isUpToDate)
    }

    @Test func failingMigrationIsRolledBackAndNamed() throws {
        let directory = try temporaryDirectory([
            "0001_first.sql": "CREATE TABLE first_table (id integer);",
            "0002_broken.sql": "CREATE TABLE second_table (id integer);\nSELEC 1;",
            "0003_later.sql": "CREATE TABLE third_table (id integer);",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try emptyDatabasePool()
        let migrator = Migrator(pool: pool, directory: directory)
        let error = try #require(throws: MigrationError.self) { try migrator.migrate() }
        guard case .failed(let migration?, let cause) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(migration.version == 2)
        #expect(cause.sqlState?.rawValue == "42601")
        #expect(error.description.contains("2 broken"))
        #expect(!error.description.contains("SELEC"), "SQL stays out of the description")
        #expect(error.debugDetail.contains("SELEC"), "the operator still sees the server's message")

        let status = try migrator.status()
        #expect(status.applied.map(\.version) == [1])
        #expect(status.pending.map(\.version) == [2, 3])
        #expect(status.problem == "database is not migrated: run `schema-registry migrate` (applied 1 of 3)")
        let tables = try pool.withConnection { connection in
            try connection.simpleQuery(
                "SELECT to_regclass('first_table') IS NOT NULL, to_regclass('second_table') IS NOT NULL"
            ).rows[0]
        }
        #expect(tables.values == ["t", "f"])
    }

    @Test func anAppliedMigrationEditedAfterwardsIsRefusedNamingItsFile() throws {
        let directory = try temporaryDirectory([
            "0001_first.sql": "CREATE TABLE first_table (id integer);",
            "0002_second.sql": "CREATE TABLE second_table (id integer);",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try emptyDatabasePool()
        let migrator = Migrator(pool: pool, directory: directory)
        try migrator.migrate()
        let recorded = try migrator.status().applied.map(\.checksum)
        #expect(recorded == [
            SHA256.hexHash(Array("CREATE TABLE first_table (id integer);".utf8)),
            SHA256.hexHash(Array("CREATE TABLE second_table (id integer);".utf8)),
        ])

        try "CREATE TABLE second_table (id bigint);".write(toFile: directory + "/0002_second.sql", atomically: true, encoding: .utf8)
        let status = try migrator.status()
        #expect(status.edited.map(\.version) == [2])
        #expect(status.isUpToDate, "nothing is pending; the edit is the problem")
        let problem = try #require(status.problem)
        #expect(problem.contains("0002_second.sql") && problem.contains("edited"), "\(problem)")
        #expect(!problem.contains("\n"), "one line")
        let error = try #require(throws: MigrationError.self) { try migrator.migrate() }
        #expect(error.description == problem)

        // A new migration is not applied past the edited one; restoring the file clears it.
        try "SELECT 3;".write(toFile: directory + "/0003_third.sql", atomically: true, encoding: .utf8)
        #expect(throws: MigrationError.self) { try migrator.migrate() }
        try "CREATE TABLE second_table (id integer);".write(toFile: directory + "/0002_second.sql", atomically: true, encoding: .utf8)
        #expect(try migrator.migrate().map(\.version) == [3])
        #expect(try migrator.status().problem == nil)
    }

    @Test func checksumsAreAddedAndBackfilledOnTheFirstMigrateAfterAnUpgrade() throws {
        let directory = try temporaryDirectory([
            "0001_first.sql": "SELECT 1;",
            "0002_second.sql": "SELECT 2;",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try emptyDatabasePool()
        let migrator = Migrator(pool: pool, directory: directory)
        try migrator.migrate()
        // As a build from before checksums left it.
        _ = try pool.withConnection { try $0.simpleQuery("ALTER TABLE schema_migrations DROP COLUMN checksum") }
        let old = try migrator.status()
        #expect(old.applied.map(\.checksum) == [nil, nil])
        #expect(old.problem == nil, "a database without checksums still serves")

        try "SELECT 3;".write(toFile: directory + "/0003_third.sql", atomically: true, encoding: .utf8)
        #expect(try migrator.migrate().map(\.version) == [3])
        let checksums = try migrator.status().applied.map(\.checksum)
        #expect(checksums == ["SELECT 1;", "SELECT 2;", "SELECT 3;"].map { SHA256.hexHash(Array($0.utf8)) })

        try "SELECT 1; -- edited".write(toFile: directory + "/0001_first.sql", atomically: true, encoding: .utf8)
        #expect(try migrator.status().problem?.contains("0001_first.sql") == true, "backfilled rows are checked too")
    }

    @Test func migrationFilesAreReadInNumericOrder() throws {
        let directory = try temporaryDirectory([
            "0010_tenth.sql": "SELECT 10;",
            "0002_second.sql": "SELECT 2;",
            "0001_first.sql": "SELECT 1;",
            "README.md": "not a migration",
            "0003.sql": "no name",
            "notes_0004.sql": "no number",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: "dbname=unused"))
        let migrations = try Migrator(pool: pool, directory: directory).available()
        #expect(migrations.map(\.version) == [1, 2, 10])
        #expect(migrations.map(\.name) == ["first", "second", "tenth"])

        let duplicate = try temporaryDirectory(["0001_a.sql": "", "001_b.sql": ""])
        defer { try? FileManager.default.removeItem(atPath: duplicate) }
        #expect(throws: MigrationError.self) { try Migrator(pool: pool, directory: duplicate).available() }
        #expect(throws: MigrationError.self) { try Migrator(pool: pool, directory: "/nonexistent/dir").available() }
    }

    @Test func migrationsDirectoryIsFoundFromOverrideOrByWalkingUp() throws {
        #expect(Migrator.locateDirectory(override: "/custom/place", executableDirectory: "/") == "/custom/place")
        let root = try temporaryDirectory(["unused.txt": ""])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/migrations", withIntermediateDirectories: true)
        try "".write(toFile: root + "/migrations/0001_initial.sql", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/.build/debug/bin", withIntermediateDirectories: true)
        #expect(Migrator.locateDirectory(override: nil, executableDirectory: root + "/.build/debug/bin") == root + "/migrations")
        #expect(Migrator.locateDirectory(override: "", executableDirectory: "/nonexistent/bin")
            == "/usr/share/schema-registry/migrations")
        // The test binary itself sits under .build in this checkout.
        #expect(Migrator.locateDirectory(override: nil).hasSuffix("/migrations"))
    }

    @Test func serverCanTellAnUnmigratedDatabase() throws {
        let pool = try emptyDatabasePool()
        let status = try Migrator(pool: pool, directory: TestPostgres.migrationsDirectory).status()
        #expect(!status.pending.isEmpty)
        #expect(status.pending.count == status.available.count)
        #expect(status.unknown.isEmpty)
    }
}
