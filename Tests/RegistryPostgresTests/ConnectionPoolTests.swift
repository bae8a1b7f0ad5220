import Foundation
import Registry
@testable import RegistryPostgres
import Synchronization
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

    @Test func acquireGivesUpWithUnavailableWhenEverySessionStaysBusy() async throws {
        let f = try Fixture(poolSize: 1, acquireTimeout: .milliseconds(300))
        let release = holdTheOnlySession(f.pool)
        #expect(f.pool.stats.inUse == 1)

        let clock = ContinuousClock()
        let started = clock.now
        let error = try await #require(throws: RegistryError.self) { try await f.store.application(code: "ANY00-CODE0") }
        let waited = clock.now - started
        #expect(error.code == .unavailable)
        #expect(waited >= .milliseconds(250) && waited < .seconds(2))
        release.signal()

        // Once the session is back, callers are served again.
        #expect(try await f.store.application(code: f.application.code) == f.application)
    }

    @Test func waitingCallersAreCountedAndServedInTurn() throws {
        let f = try Fixture(poolSize: 1, acquireTimeout: .seconds(10))
        let release = holdTheOnlySession(f.pool)

        let waitersDone = DispatchSemaphore(value: 0)
        let waiters = Thread {
            let results = onThreads(3) { _ in try f.pool.run(PostgresSchemaStore.applicationRead(code: f.application.code)) }
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            waitersDone.signal()
        }
        waiters.start()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while f.pool.stats.waiting < 3 && clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(f.pool.stats == PoolStats(size: 1, open: 1, idle: 0, inUse: 1, waiting: 3))

        release.signal()  // let the holder go; the three waiters are served one by one
        waitersDone.wait()
        #expect(f.pool.stats == PoolStats(size: 1, open: 1, idle: 1, inUse: 0, waiting: 0))
    }

    @Test func deadlockVictimIsRetriedOnceForWrites() throws {
        let f = try Fixture(poolSize: 2)
        let accounts = [try f.admin.createAccount(name: "first"), try f.admin.createAccount(name: "second")]
        let lockAccount = PGStatement("test_lock_account", "SELECT id FROM accounts WHERE id = $1::bigint FOR UPDATE")
        let firstLockTaken = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let finished = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let attempts = Mutex([0, 0])
        // Two transactions lock the same two rows in opposite order: PostgreSQL aborts one with
        // 40P01 after deadlock_timeout, and the write policy runs it again. The run again waits
        // for the survivor: otherwise it could take its first row back before the survivor
        // (woken by the abort) re-locks it, and deadlock a second time.
        let results = onThreads(2) { index in
            defer { finished[index].signal() }
            try f.pool.withConnection(retry: .write) { connection in
                let attempt = attempts.withLock { counts -> Int in
                    counts[index] += 1
                    return counts[index]
                }
                if attempt > 1 { finished[1 - index].wait() }
                try connection.transaction {
                    try connection.execute(lockAccount, [accounts[index]])
                    if attempt == 1 {
                        firstLockTaken[index].signal()
                        firstLockTaken[1 - index].wait()
                    }
                    try connection.execute(lockAccount, [accounts[1 - index]])
                }
            }
        }
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(attempts.withLock { $0.reduce(0, +) } == 3)
    }

    @Test func unreachableDatabaseFailsFastWithUnavailable() async throws {
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: "postgresql://postgres@127.0.0.1:1/none"))
        let store = PostgresSchemaStore(pool: pool)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: RegistryError.unavailable("database unavailable")) { try await store.token(forTokenHash: [1]) }
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

        #expect(try f.pool.run(PostgresSchemaStore.applicationRead(code: f.application.code)) == f.application)
        let after = try f.pool.withConnection { try $0.execute(pid).rows[0].int32(0) }
        #expect(after != before)
        // Writes work too.
        #expect(try blocking { try await f.publish("A") }.version == 1)
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

    @Test func readsAreRetriedOnceAfterALostSessionButWritesAreNot() async throws {
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

    @Test func closedPoolRefusesWork() async throws {
        let f = try Fixture(poolSize: 2)
        _ = try await f.store.application(code: f.application.code)
        f.pool.close()
        #expect(f.pool.stats.open == 0)
        await #expect(throws: RegistryError.unavailable("database unavailable")) { try await f.store.application(code: "X") }
    }
}

/// Takes a session on another thread and keeps it until the returned semaphore is signalled;
/// returns once the session is held.
private func holdTheOnlySession(_ pool: ConnectionPool) -> DispatchSemaphore {
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread {
        _ = try? pool.withConnection { _ in
            holding.signal()
            release.wait()
        }
    }.start()
    holding.wait()
    return release
}
