import Foundation
import Testing
import TestSupport

@testable import RegistryPostgres

/// The service's SQL lives in `Sources/RegistryPostgres/SQL/*.sql`, one statement per file, and
/// nowhere else: every file is used by exactly one `PGStatement(file:)`, every name used has its
/// file, and every statement is a parameterised statement the migrated schema accepts.
@Suite struct SQLFilesTests {
    static let sources = TestPaths.packageRoot.appendingPathComponent("Sources/RegistryPostgres")
    static let folder = sources.appendingPathComponent("SQL")

    /// The Swift sources of RegistryPostgres, by file name.
    static func swiftSources() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// Every `PGStatement(file: "NAME")` in the sources, one entry per use.
    static func namesUsed() throws -> [String] {
        let pattern = try Regex(#"PGStatement\(file: "([^"]*)"\)"#)
        return try swiftSources().flatMap { source in source.text.matches(of: pattern).map { String($0.output[1].substring!) } }
    }

    @Test func everyNameUsedHasItsFileAndEveryFileIsUsedOnce() throws {
        let used = try Self.namesUsed()
        let embedded = Set(SQLFiles.statements.keys)
        #expect(!used.isEmpty)
        for name in Set(used).subtracting(embedded).sorted() { Issue.record("PGStatement(file: \"\(name)\") has no SQL/\(name).sql") }
        for name in embedded.subtracting(used).sorted() { Issue.record("SQL/\(name).sql is used by no statement") }
        for name in Set(used) where used.filter({ $0 == name }).count > 1 {
            Issue.record("SQL/\(name).sql is loaded by more than one statement")
        }
    }

    @Test func theEmbeddedTextIsTheFileAsWritten() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files.map { String($0.dropLast(".sql".count)) } == SQLFiles.statements.keys.sorted())
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            let name = String(file.dropLast(".sql".count))
            #expect(SQLFiles.statements[name] == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(file)")
        }
    }

    /// No statement is assembled in Swift: string literals in the sources hold no SQL beyond the
    /// transaction and session commands `simpleQuery` runs.
    @Test func noSwiftSourceWritesAStatement() throws {
        let statement = try Regex(#""\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER)\b"#)
        for source in try Self.swiftSources() where source.text.contains(statement) {
            Issue.record("\(source.name) holds SQL in a string literal; it belongs in SQL/")
        }
    }

    /// Each statement prepares (parsed and checked against the tables and columns) on a migrated
    /// database; the two that create the migrator's own table run in every migration instead.
    /// The texts are constant files, so values can only reach them as `$n` parameters. SQL's
    /// PREPARE takes no transaction control: BEGIN, COMMIT and ROLLBACK are prepared and run as
    /// the transactions run them, through the protocol.
    @Test func everyStatementPreparesOnTheMigratedSchema() throws {
        let url = try TestPostgres.shared.makeDatabase()
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: url, poolSize: 1))
        defer { pool.close() }
        let transactionControl = [ConnectionPool.begin, ConnectionPool.rollback, ConnectionPool.begin, ConnectionPool.commit]
        try pool.withConnection { connection in
            for statement in transactionControl { try connection.execute(statement) }
            #expect(connection.isIdle)
            let skipped = Set(transactionControl.map(\.sql))
            for (name, sql) in SQLFiles.statements.sorted(by: { $0.key < $1.key })
            where !sql.hasPrefix("CREATE") && !sql.hasPrefix("ALTER") && !skipped.contains(sql) {
                #expect(!sql.contains(";"), "\(name): one statement per file")
                do {
                    try connection.simpleQuery("PREPARE check_\(name) AS \(sql)")
                    try connection.simpleQuery("DEALLOCATE check_\(name)")
                } catch {
                    Issue.record("SQL/\(name).sql does not prepare: \(error) \((error as? PGError)?.debugDetail ?? "")")
                }
            }
        }
    }
}
