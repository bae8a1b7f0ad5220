import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryPostgres

/// A database failure keeps, for the log, what the client is never shown: the SQLSTATE, the
/// name of the statement that failed and the server's primary message, never its DETAIL (which
/// quotes values), a value a data exception quotes, or a password libpq repeats.
@Suite struct FailureCauseTests {
    @Test func aServerErrorKeepsItsSQLStateStatementAndPrimaryMessage() throws {
        let error = PGError(
            kind: .server, sqlState: .queryCanceled, statement: "store_get_version",
            debugDetail: "ERROR:  canceling statement due to statement timeout\nCONTEXT:  secret-context",
            logMessage: "canceling statement due to statement timeout")
        let mapped = error.registryError
        #expect(mapped == .unavailable("database unavailable"), "what the client sees is unchanged")
        #expect(mapped.message == "database unavailable")
        #expect(
            mapped.cause
                == RegistryError.Cause(
                    kind: "database_error", sqlState: "57014", statement: "store_get_version",
                    message: "canceling statement due to statement timeout"))
        #expect(error.storeError.cause == mapped.cause, "the store's map keeps it too")
    }

    @Test func anInternalErrorKeepsItsCauseAndEqualityIgnoresIt() {
        let error = PGError(kind: .server, sqlState: SQLState("42P01"), statement: "store_list_type", logMessage: "relation \"schema_versions\" does not exist")
        #expect(error.registryError == .internal())
        #expect(error.registryError.cause?.sqlState == "42P01")
        #expect(error.registryError.cause?.statement == "store_list_type")
        #expect(RegistryError.internal().caused(by: .init(kind: "x")) == .internal(), "the cause plays no part in equality")
    }

    @Test func theServersFullTextNeverBecomesTheCause() {
        // Without a primary message only the SQLSTATE is kept: the debug text holds DETAIL lines.
        let error = PGError(kind: .server, sqlState: .uniqueViolation, statement: "s", debugDetail: "DETAIL:  Key (code)=(SECRET-VALUE) exists")
        #expect(error.cause.message == nil)
        #expect(error.cause.sqlState == "23505")
    }

    @Test func aDataExceptionLosesTheValueItQuotes() {
        let error = PGError(
            kind: .server, sqlState: SQLState("22P02"), statement: "t",
            logMessage: "invalid input syntax for type bigint: \"secret-value-42\"")
        #expect(error.cause.message == "invalid input syntax for type bigint")
        let encoding = PGError(kind: .server, sqlState: SQLState("22021"), logMessage: "invalid byte sequence for encoding \"UTF8\": 0xff")
        #expect(encoding.cause.message == "invalid byte sequence for encoding \"UTF8\"")
    }

    @Test func theClientsOwnReasonsAreKeptAndLongTextIsCut() {
        let timeout = PGError(kind: .timeout, statement: "store_newest_live", debugDetail: "no answer within the response timeout")
        #expect(timeout.cause == .init(kind: "database_timeout", statement: "store_newest_live", message: "no answer within the response timeout"))
        let lost = PGError(kind: .connectionLost, debugDetail: "server closed the connection unexpectedly\n\tThis probably means…")
        #expect(lost.cause.message == "server closed the connection unexpectedly")
        let long = PGError(kind: .server, sqlState: SQLState("XX000"), logMessage: String(repeating: "x", count: 10_000))
        #expect((long.cause.message?.utf8.count ?? 0) < 200)
    }

    @Test func aFailedConnectionSaysSoWithThePasswordMasked() throws {
        for url in [
            "postgresql://registry:hunter2-pw@127.0.0.1:1/db?connect_timeout=2",
            "host=127.0.0.1 port=1 dbname=db user=registry password=hunter2-pw connect_timeout=2",
        ] {
            let error = try #require(throws: PGError.self) { try PGConnection.connect(PostgresConfig(databaseURL: url)) }
            #expect(error.kind == .connectionFailed)
            let cause = error.registryError.cause
            #expect(cause?.kind == "connection_failed")
            #expect(cause?.message?.isEmpty == false, "libpq's reason: \(error.debugDetail)")
            #expect(cause?.message?.contains("hunter2") == false)
        }
        // libpq repeats what it was given; the secret is masked wherever it appears.
        let echoed = ConnectionString.masking(
            firstLineOf: "server said \"hunter2-pw\" is wrong\nsecond line", secretsOf: "postgresql://u:hunter2-pw@h/db")
        #expect(echoed == "server said \"*****\" is wrong")
        // A string libpq cannot parse may be quoted in any part: a fixed text stands instead.
        #expect(
            ConnectionString.masking(firstLineOf: "missing \"=\" after \"hunter2\"", secretsOf: "password hunter2")
                == "(not a valid libpq connection string)")
    }

    @Test func aRealServerErrorCarriesItsPrimaryMessageOnly() throws {
        let url = try TestPostgres.shared.makeDatabase()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url, statementTimeout: .milliseconds(50)))
        let cast = PGStatement("t_cause_cast", "SELECT $1::bigint")
        let castError = try #require(throws: PGError.self) { try connection.execute(cast, ["secret-value-42"]) }
        #expect(castError.cause == .init(kind: "database_error", sqlState: "22P02", statement: "t_cause_cast", message: "invalid input syntax for type bigint"))
        let sleep = PGStatement("t_cause_sleep", "SELECT pg_sleep(2)")
        let timeout = try #require(throws: PGError.self) { try connection.execute(sleep) }
        #expect(
            timeout.registryError.cause
                == .init(kind: "database_error", sqlState: "57014", statement: "t_cause_sleep", message: "canceling statement due to statement timeout"))
    }

    @Test func aStatementNamesTheFailuresItsDecodingRaises() throws {
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: try TestPostgres.shared.makeDatabase(), poolSize: 1))
        defer { pool.close() }
        let one = PGStatement("t_cause_one", "SELECT 1")
        let unreadable = StoreStatement(statement: one, parameters: []) { try $0.rows[0].int32(3) }
        let error = try #require(throws: RegistryError.self) { try pool.run(unreadable) }
        #expect(error == .internal())
        #expect(error.cause?.kind == "unexpected_result")
        #expect(error.cause?.statement == "t_cause_one")
        let plain = StoreStatement<Int>(statement: one, parameters: []) { _ in throw RegistryError.internal() }
        #expect(throws: RegistryError.self) { try pool.run(plain) }
        let named = try #require(throws: RegistryError.self) { try pool.run(plain) }
        #expect(named.cause == .init(kind: "unexpected_result", statement: "t_cause_one"))
    }

    @Test func aReadOnTheLoopNamesItsStatement() throws {
        let url = try TestPostgres.shared.makeDatabase()
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: url))
        defer { pool.close() }
        let loop = try LoopThread()
        defer { loop.stop() }
        let divide = PGStatement("t_cause_divide", "SELECT 1 / $1::integer")
        let result = loop.answer(of: Int32.self) {
            pool.run(StoreStatement(statement: divide, parameters: [0]) { try $0.rows[0].int32(0) }, then: $0)
        }
        let error = try #require(registryError(result))
        #expect(error == .internal())
        #expect(error.cause == .init(kind: "database_error", sqlState: "22012", statement: "t_cause_divide", message: "division by zero"))
    }
}
