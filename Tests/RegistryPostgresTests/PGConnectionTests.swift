import Registry
import RegistryPostgres
import Testing
import TestSupport

@Suite struct PGConnectionTests {
    private func database() throws -> (TestPostgres, String) {
        let cluster = try TestPostgres.shared
        return (cluster, try cluster.makeDatabase())
    }

    @Test func errorsCarryTheSQLStateButNeverSQLOrParameters() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
        let statement = PGStatement("test_cast", "SELECT $1::integer AS secret_column_name")
        let error = try #require(throws: PGError.self) { try connection.execute(statement, ["secret-value-42"]) }
        #expect(error.sqlState == .invalidTextRepresentation)
        #expect(error.kind == .server)
        #expect(error.statement == "test_cast")
        #expect(!error.description.contains("secret"))
        #expect(!error.description.contains("SELECT"))
        #expect(error.description.contains("22P02"))
        #expect(error.debugDetail.contains("secret-value-42"))
        #expect(error.registryError.code == .internal)
        // The session survives a statement error.
        #expect(connection.isUsable)
        #expect(try connection.execute(statement, ["5"]).rows.first?.int32(0) == 5)
    }

    @Test func uniqueViolationIsNamedAndCarriesTheConstraint() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
        let insert = PGStatement("test_insert_account_app", "INSERT INTO applications (code, account_id) VALUES ($1::text, $2::bigint)")
        let account = try connection.execute(PGStatement("test_account", "INSERT INTO accounts (name) VALUES ('x') RETURNING id"))
            .rows[0].int64(0)
        try connection.execute(insert, ["SAME0-CODE0", account])
        let error = try #require(throws: PGError.self) { try connection.execute(insert, ["SAME0-CODE0", account]) }
        #expect(error.sqlState == .uniqueViolation)
        #expect(error.sqlState?.name == "unique_violation")
        #expect(error.constraint == "applications_code_key")
        #expect(!error.description.contains("SAME0"))
    }

    @Test func failedConnectDescriptionHidesTheConnectionString() throws {
        let url = "postgresql://admin:hunter2@127.0.0.1:1/secretdb?connect_timeout=2"
        let error = try #require(throws: PGError.self) { try PGConnection.connect(PostgresConfig(databaseURL: url)) }
        #expect(error.kind == .connectionFailed)
        #expect(error.isConnectionLoss)
        for secret in ["hunter2", "admin", "secretdb", "127.0.0.1"] {
            #expect(!error.description.contains(secret))
        }
        #expect(!error.debugDetail.isEmpty)
        #expect(error.registryError == .unavailable("database unavailable"))
    }

    @Test func uriAndKeywordValueStringsBothConnectAndTheirSettingsWin() throws {
        let (cluster, url) = try database()
        let show = PGStatement("test_show", "SELECT current_setting('application_name'), current_setting('statement_timeout'), current_database()")

        let ours = try PGConnection.connect(PostgresConfig(databaseURL: url, statementTimeout: .milliseconds(1500)))
        let oursRow = try ours.execute(show).rows[0]
        #expect(oursRow.values[0] == "schema-registry")
        #expect(oursRow.values[1] == "1500ms")

        let databaseName = String(url.split(separator: "?")[0].split(separator: "/").last!)
        let keywordValue = "host=\(cluster.directory) port=\(cluster.port) user=postgres dbname=\(databaseName) application_name=custom-app"
        let theirs = try PGConnection.connect(PostgresConfig(databaseURL: keywordValue))
        let theirsRow = try theirs.execute(show).rows[0]
        #expect(theirsRow.values[0] == "custom-app")
        #expect(theirsRow.values[2] == databaseName)

        let tcp = try PGConnection.connect(PostgresConfig(databaseURL: cluster.tcpURL(database: databaseName) + "?application_name=from-uri"))
        #expect(try tcp.execute(show).rows[0].values[0] == "from-uri")
    }

    @Test func statementTimeoutCancelsSlowStatementsAsUnavailable() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url, statementTimeout: .milliseconds(200)))
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(throws: PGError.self) { try connection.simpleQuery("SELECT pg_sleep(5)") }
        #expect(clock.now - started < .seconds(3))
        #expect(error.sqlState == .queryCanceled)
        #expect(error.registryError == .unavailable("database unavailable"))
        #expect(connection.isUsable)
    }

    @Test func responseTimeoutAbandonsASessionThatDoesNotAnswer() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(
            PostgresConfig(databaseURL: url, statementTimeout: .seconds(30), responseTimeout: .milliseconds(300)))
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(throws: PGError.self) { try connection.simpleQuery("SELECT pg_sleep(5)") }
        #expect(clock.now - started < .seconds(3))
        #expect(error.kind == .timeout)
        #expect(!connection.isUsable, "a session with an unanswered statement must not be reused")
        #expect(error.registryError == .unavailable("database unavailable"))
    }

    @Test func longRunningWorkCanLiftTheTimeoutsAndGetsThemBack() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(
            PostgresConfig(databaseURL: url, statementTimeout: .milliseconds(100), responseTimeout: .milliseconds(150)))
        try connection.withoutTimeouts { try connection.simpleQuery("SELECT pg_sleep(0.4)") }
        #expect(try connection.simpleQuery("SHOW statement_timeout").rows[0].values[0] == "100ms")
        #expect(throws: PGError.self) { try connection.simpleQuery("SELECT pg_sleep(1)") }
    }

    @Test func preparedStatementsKeepOneGenericPlan() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
        let next = PGStatement("test_next", "SELECT $1::integer + 1")
        for value in 1...8 { #expect(try connection.execute(next, [Int32(value)]).rows[0].values[0] == String(value + 1)) }
        let plans = PGStatement(
            "test_plans", "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1::text")
        #expect(try connection.execute(plans, ["test_next"]).rows[0].values == ["8", "0"])
    }

    @Test func transactionsCommitOrRollBack() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
        let insert = PGStatement("test_tx_insert", "INSERT INTO accounts (name) VALUES ($1::text)")
        let count = PGStatement("test_tx_count", "SELECT count(*) FROM accounts WHERE name LIKE 'tx-%'")
        try connection.transaction { try connection.execute(insert, ["tx-kept"]) }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute(insert, ["tx-dropped"])
                throw Abort()
            }
        }
        #expect(connection.isIdle)
        #expect(try connection.execute(count).rows[0].int64(0) == 1)
    }

    @Test func byteaParametersRoundTripEveryByte() throws {
        let (_, url) = try database()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: url))
        let bytes = (0...255).map { UInt8($0) }
        let echo = PGStatement("test_bytea", "SELECT encode($1::bytea, 'hex'), length($1::bytea)")
        let row = try connection.execute(echo, [PGBytea(bytes)]).rows[0]
        #expect(row.values[0] == PGBytea(bytes).pgText.dropFirst(2).description)
        #expect(try row.int32(1) == 256)
        #expect(try connection.execute(PGStatement("test_null", "SELECT $1::text IS NULL"), [nil]).rows[0].bool(0))
    }
}
