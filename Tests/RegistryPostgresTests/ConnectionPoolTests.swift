import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

@Suite struct ConnectionPoolTests {
    @Test func sessionsAreReusedNotReopened() throws {
        let f = try Fixture(poolSize: 4)
        let pid = PGStatement("test_backend_pid", "SELECT pg_backend_pid()")
        let first = try f.pool.withConnection { try $0.execute(pid).rows[0].int32(0) }
        for _ in 0..<20 {
            #expect(try f.pool.withConnection { try $0.execute(pid).rows[0].int32(0) } == first)
        }
        #expect(f.pool.stats == PoolStats(size: 4, open: 1, idle: 1, inUse: 0, waiting: 0))
    }

    @Test func acquireGivesUpWithUnavailableWhenEverySessionStaysBusy() throws {
        let f = try Fixture(poolSize: 1, acquireTimeout: .milliseconds(300))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? f.pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        holding.wait()
        #expect(f.pool.stats.inUse == 1)

        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(throws: RegistryError.self) { try f.store.application(code: "ANY00-CODE0") }
        let waited = clock.now - started
        #expect(error.code == .unavailable && error.httpStatus == 503)
        #expect(waited >= .milliseconds(250) && waited < .seconds(2))
        release.signal()

        // Once the session is back, callers are served again.
        #expect(try f.store.application(code: f.application.code) == f.application)
    }

    @Test func waitingCallersAreCountedAndServedInTurn() throws {
        let f = try Fixture(poolSize: 2, acquireTimeout: .seconds(10))
        let results = onThreads(12) { _ in
            try f.pool.withConnection { connection in
                try connection.simpleQuery("SELECT pg_sleep(0.05)")
            }
        }
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let stats = f.pool.stats
        #expect(stats.inUse == 0 && stats.waiting == 0 && stats.open <= 2)
    }

    @Test func unreachableDatabaseFailsFastWithUnavailable() throws {
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: "postgresql://postgres@127.0.0.1:1/none"))
        let store = PostgresSchemaStore(pool: pool)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: RegistryError.unavailable("database unavailable")) { try store.accountID(forTokenHash: [1]) }
        #expect(clock.now - started < .seconds(5))
        #expect(pool.lastFailure?.kind == .connectionFailed)
        #expect(pool.stats.open == 0 && pool.stats.inUse == 0)
    }

    @Test func terminatedSessionIsReplacedWithoutFailingTheCaller() throws {
        let f = try Fixture(poolSize: 1)
        let pid = PGStatement("test_backend_pid", "SELECT pg_backend_pid()")
        let before = try f.pool.withConnection { try $0.execute(pid).rows[0].int32(0) }
        // Kill the pooled session from outside, as an operator or a failover would.
        let killer = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        try killer.execute(PGStatement("test_terminate", "SELECT pg_terminate_backend($1::integer)"), [before])
        Thread.sleep(forTimeInterval: 0.2)

        #expect(try f.store.application(code: f.application.code) == f.application)
        let after = try f.pool.withConnection { try $0.execute(pid).rows[0].int32(0) }
        #expect(after != before)
        // Writes work too.
        #expect(try f.publish("A").version == 1)
    }

    @Test func sessionLeftInsideATransactionIsNotReused() throws {
        let f = try Fixture(poolSize: 1)
        let pid = PGStatement("test_backend_pid", "SELECT pg_backend_pid()")
        let leaked = try f.pool.withConnection { connection in
            try connection.simpleQuery("BEGIN")
            return try connection.execute(pid).rows[0].int32(0)
        }
        let next = try f.pool.withConnection { connection in
            #expect(connection.isIdle)
            return try connection.execute(pid).rows[0].int32(0)
        }
        #expect(next != leaked)
    }

    @Test func readsAreRetriedOnceAfterALostSessionButWritesAreNot() throws {
        let f = try Fixture(poolSize: 2)
        let pid = PGStatement("test_backend_pid", "SELECT pg_backend_pid()")
        let terminateSelf = PGStatement("test_terminate_self", "SELECT pg_terminate_backend(pg_backend_pid())")

        var attempts = 0
        let readPid = try f.pool.withConnection(retry: .read) { connection -> Int32 in
            attempts += 1
            if attempts == 1 { try connection.execute(terminateSelf) }
            return try connection.execute(pid).rows[0].int32(0)
        }
        #expect(attempts == 2)
        #expect(readPid > 0)

        attempts = 0
        let error = try #require(throws: PGError.self) {
            try f.pool.withConnection(retry: .write) { connection in
                attempts += 1
                try connection.execute(terminateSelf)
            }
        }
        #expect(attempts == 1)
        #expect(error.isConnectionLoss)
        #expect(error.registryError == .unavailable("database unavailable"))
    }

    @Test func closedPoolRefusesWork() throws {
        let f = try Fixture(poolSize: 2)
        _ = try f.store.application(code: f.application.code)
        f.pool.close()
        #expect(f.pool.stats.open == 0)
        #expect(throws: RegistryError.unavailable("database unavailable")) { try f.store.application(code: "X") }
    }
}
