import EventLoop
import Foundation
import Registry
import Synchronization
import Testing
import TestSupport

@testable import RegistryPostgres

/// Reads started on an event loop are pipelined on the loop's own sessions and answered on the
/// loop's thread, with the values and errors of the blocking reads and the pool's timeouts,
/// retry and failure rules.
@Suite struct LoopSessionsTests {
    static let echo = PGStatement("t_echo", "SELECT $1::integer, pg_backend_pid()")
    static let sleep = PGStatement("t_sleep", "SELECT pg_sleep($1::float8), pg_backend_pid()")
    static let terminateSelf = PGStatement("t_terminate_self", "SELECT pg_terminate_backend(pg_backend_pid())")

    /// The value and backend of an echo read.
    static func echoRead(_ value: Int) -> StoreStatement<(value: Int32, backend: Int32)> {
        StoreStatement(statement: echo, parameters: [value]) { result in
            (try result.rows[0].int32(0), try result.rows[0].int32(1))
        }
    }

    /// The backend that answered a read sleeping `seconds`.
    static func sleepRead(_ seconds: Double) -> StoreStatement<Int32> {
        StoreStatement(statement: sleep, parameters: [seconds]) { try $0.rows[0].int32(1) }
    }

    static func pool(_ f: Fixture, _ tune: (inout PostgresConfig) -> Void = { _ in }) -> ConnectionPool {
        var config = PostgresConfig(databaseURL: f.url)
        tune(&config)
        return ConnectionPool(config: config)
    }

    @Test func theReadsAnswerAsTheBlockingReadsDo() async throws {
        let f = try Fixture()
        for _ in 1...3 { try await f.publish("A") }
        try await f.publish("B")
        let hash = [UInt8](repeating: 7, count: 32)
        _ = try f.admin.issueToken(accountID: f.accountID, tokenHash: hash)
        let (store, application) = (f.store, f.application)
        let loop = try LoopThread()
        defer { loop.stop() }

        let tokens = loop.answers(2, of: TokenGrant?.self) { index in
            try await store.token(forTokenHash: index == 0 ? hash : [1, 2, 3])
        }
        #expect(try tokens[0].get() != nil)
        #expect(try await tokens[0].get() == store.token(forTokenHash: hash))
        #expect(try tokens[1].get() == nil)

        let applications = loop.answers(2, of: Application?.self) { index in
            try await store.application(code: index == 0 ? application.code : "NONE0-NONE0")
        }
        #expect(try applications[0].get() == application)
        #expect(try applications[1].get() == nil)

        let schemas = loop.answers(3, of: SchemaVersion?.self) { index in
            try await store.schema(application: application, attributesType: "A", version: [2, 3, 9][index])
        }
        #expect(try await schemas[0].get() == store.schema(application: application, attributesType: "A", version: 2))
        #expect(try schemas[1].get()?.version == 3)
        #expect(try schemas[2].get() == nil)

        let asked: [(type: String, limit: Int)] = [("A", 2), ("A", 10), ("C", 10)]
        let newest = loop.answers(3, of: [SchemaVersion].self) { index in
            try await store.list(application: application, attributesType: asked[index].type, after: nil, limit: asked[index].limit)
        }
        #expect(try await newest[0].get() == store.list(application: application, attributesType: "A", after: nil, limit: 2))
        #expect(try newest[0].get().map(\.version) == [3, 2])
        #expect(try newest[1].get().map(\.version) == [3, 2, 1])
        #expect(try newest[2].get().isEmpty)

        let accountID = f.accountID
        let owned = loop.answers(2, of: [Application].self) { index in
            try await store.applications(accountID: index == 0 ? accountID : -1)
        }
        #expect(try await owned[0].get() == store.applications(accountID: accountID))
        #expect(try owned[0].get() == [application])
        #expect(try owned[1].get().isEmpty)

        let filters = [TypeFilter(prefix: nil, after: nil), TypeFilter(prefix: "B", after: nil), TypeFilter(prefix: nil, after: "A")]
        let index = loop.answers(3, of: [TypeSummary].self) { index in
            try await store.types(application: application, filter: filters[index], limit: index == 0 ? nil : 1)
        }
        #expect(try await index[0].get() == store.types(application: application, filter: filters[0], limit: nil))
        #expect(try index[0].get().map(\.attributesType) == ["A", "B"])
        #expect(try index[1].get().map(\.attributesType) == ["B"])
        #expect(try index[2].get().map(\.attributesType) == ["B"])

        let policies = loop.answers(2, of: EffectivePolicy.self) { index in
            try await store.compatibilityPolicy(application: application, attributesType: index == 0 ? nil : "A")
        }
        #expect(try await policies[0].get() == store.compatibilityPolicy(application: application, attributesType: nil))
        #expect(try await policies[1].get() == store.compatibilityPolicy(application: application, attributesType: "A"))

        let queries = [
            AuditQuery(order: .newestFirst, applicationID: application.id, limit: 2),
            AuditQuery(order: .oldestFirst, accountID: accountID, limit: 10),
            AuditQuery(order: .newestFirst, limit: 10),
        ]
        let audits = loop.answers(3, of: [AuditEvent].self) { index in try await store.auditEvents(queries[index]) }
        #expect(try await audits[0].get() == store.auditEvents(queries[0]))
        #expect(try audits[0].get().count == 2)
        #expect(try await audits[1].get() == store.auditEvents(queries[1]))
        #expect(registryError(audits[2])?.code == .internal, "newest first is per application, refused as when blocking")
    }

    @Test func offTheLoopTheReadsBlockAndAnswerBeforeReturning() throws {
        let f = try Fixture()
        let answer = Mutex<Result<Application?, any Error>?>(nil)
        f.pool.run(PostgresSchemaStore.applicationRead(code: f.application.code)) { result in
            #expect(EventLoop.current == nil)
            answer.withLock { $0 = result }
        }
        let result = try #require(answer.withLock { $0 })
        #expect(try result.get() == f.application)
    }

    @Test func twoHundredReadsPipelinedOnOneSessionAnswerEachItsOwn() async throws {
        let f = try Fixture()
        for _ in 1...3 { try await f.publish("A") }
        let pool = Self.pool(f) { $0.loopReadsInFlight = 256 }
        let store = PostgresSchemaStore(pool: pool)
        let application = f.application
        let loop = try LoopThread()
        defer { loop.stop() }

        let echoes = loop.answers(200, of: (value: Int32, backend: Int32).self) { index, done in
            pool.run(Self.echoRead(index), then: done)
        }
        #expect(echoes.map { try? $0.get().value } == (0..<200).map { Int32($0) })
        #expect(Set(echoes.compactMap { try? $0.get().backend }).count == 1)

        let schemas = loop.answers(200, of: SchemaVersion?.self) { index in
            try await store.schema(application: application, attributesType: "A", version: Int32(index % 5))
        }
        let versions: [Int32?] = schemas.map { result in (try? result.get())?.flatMap { $0.version } }
        let expected: [Int32?] = (0..<200).map { index in (1...3).contains(index % 5) ? Int32(index % 5) : nil }
        #expect(versions == expected)
        #expect(pool.loopStats == LoopSessionStats(open: 1, inFlight: 0, waiting: 0))
    }

    @Test func aFailingReadInThePipelineFailsAloneWhetherItsExecutionOrItsPreparationFails() throws {
        let f = try Fixture()
        let pool = Self.pool(f)
        let loop = try LoopThread()
        defer { loop.stop() }
        let divide = PGStatement("t_divide", "SELECT 1 / $1::integer")
        let unknownTable = PGStatement("t_unknown_table", "SELECT count(*) FROM no_such_table")

        let results = loop.answers(5, of: Int32.self) { index, done in
            switch index {
            case 1: pool.run(StoreStatement(statement: divide, parameters: [0]) { try $0.rows[0].int32(0) }, then: done)
            case 3: pool.run(StoreStatement(statement: unknownTable, parameters: []) { try $0.rows[0].int32(0) }, then: done)
            default: pool.run(Self.echoRead(index).map(\.value), then: done)
            }
        }
        #expect(results.map { try? $0.get() } == [0, nil, 2, nil, 4])
        #expect(registryError(results[1])?.code == .internal)
        #expect(registryError(results[3])?.code == .internal)
        #expect(pool.loopStats == LoopSessionStats(open: 1, inFlight: 0, waiting: 0))
    }

    @Test func readsBeyondTheInFlightLimitWaitAndAreCounted() throws {
        let f = try Fixture()
        let pool = Self.pool(f) { $0.loopReadsInFlight = 2 }
        let loop = try LoopThread()
        defer { loop.stop() }

        let sleeping = loop.start(5, of: Int32.self) { _, done in pool.run(Self.sleepRead(0.5), then: done) }
        let seen = waitUntil(timeoutSeconds: 10) { pool.loopStats == LoopSessionStats(open: 1, inFlight: 2, waiting: 3) }
        #expect(seen, "\(pool.loopStats)")
        #expect(sleeping.wait().allSatisfy { (try? $0.get()) != nil })
        #expect(pool.loopStats == LoopSessionStats(open: 1, inFlight: 0, waiting: 0))
    }

    @Test func aFullWaitingQueueRefusesReadsAsBusy() async throws {
        let f = try Fixture()
        let pool = Self.pool(f) { $0.loopReadsWaiting = 2 }
        let store = PostgresSchemaStore(pool: pool)
        let code = f.application.code
        let loop = try LoopThread()
        defer { loop.stop() }

        // All five start in one turn, before the loop's first session is open.
        let results = loop.answers(5, of: Application?.self) { _ in try await store.application(code: code) }
        #expect(results.prefix(2).allSatisfy { (try? $0.get()) != nil })
        for result in results.suffix(3) {
            #expect(registryError(result) == .unavailable("database busy: too many reads waiting"))
        }
    }

    @Test func aReadWaitingForASessionPastTheAcquireTimeoutIsBusy() throws {
        let f = try Fixture()
        let pool = Self.pool(f) {
            $0.loopReadsInFlight = 1
            $0.acquireTimeout = .seconds(1)
        }
        let loop = try LoopThread()
        defer { loop.stop() }

        let results = loop.answers(2, of: Int32.self) { index, done in
            pool.run(index == 0 ? Self.sleepRead(4) : Self.echoRead(1).map(\.value), then: done)
        }
        #expect((try? results[0].get()) != nil)
        #expect(registryError(results[1]) == .unavailable("database busy: no connection free in time"))
    }

    @Test func aResponseTimeoutFailsTheSessionsReadsAsUnavailableAndTheNextReadWorks() throws {
        let f = try Fixture()
        let pool = Self.pool(f) {
            $0.statementTimeout = .seconds(30)
            $0.responseTimeout = .milliseconds(300)
        }
        let loop = try LoopThread()
        defer { loop.stop() }

        let started = ContinuousClock.now
        // The echo is pipelined behind the sleep on the same session, so it is lost with it.
        let results = loop.answers(2, of: Int32.self) { index, done in
            pool.run(index == 0 ? Self.sleepRead(10) : Self.echoRead(1).map(\.value), then: done)
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        for result in results { #expect(registryError(result) == .unavailable("database unavailable")) }

        let next = loop.answer(of: Int32.self) { pool.run(Self.echoRead(7).map(\.value), then: $0) }
        #expect(try next.get() == 7)
    }

    @Test func aSessionTerminatedWhileIdleIsReplacedForTheNextRead() throws {
        let f = try Fixture()
        let pool = Self.pool(f)
        let loop = try LoopThread()
        defer { loop.stop() }

        let before = try loop.answer(of: Int32.self) { pool.run(Self.echoRead(1).map(\.backend), then: $0) }.get()
        try terminate(before, in: f)
        Thread.sleep(forTimeInterval: 0.2)

        let after = try loop.answer(of: Int32.self) { pool.run(Self.echoRead(2).map(\.backend), then: $0) }.get()
        #expect(after != before)
        #expect(pool.loopStats.open == 1)
    }

    @Test func aReadWhoseSessionIsLostInFlightIsRetriedOnceOnAFreshSession() throws {
        let f = try Fixture()
        let pool = Self.pool(f)
        let loop = try LoopThread()
        defer { loop.stop() }
        let first = try loop.answer(of: Int32.self) { pool.run(Self.echoRead(1).map(\.backend), then: $0) }.get()

        let sleeping = loop.start(1, of: Int32.self) { _, done in pool.run(Self.sleepRead(1), then: done) }
        Thread.sleep(forTimeInterval: 0.3)
        try terminate(first, in: f)
        let retriedOn = try sleeping.wait()[0].get()
        #expect(retriedOn != first)

        // A read that loses its session every time is retried once, then fails.
        let doomed = loop.answer(of: Void.self) { done in
            pool.run(StoreStatement(statement: Self.terminateSelf, parameters: []) { _ in }, then: done)
        }
        #expect(registryError(doomed) == .unavailable("database unavailable"))
    }

    @Test func aNULInATextParameterIsInvalidArgumentAndTheSessionStaysInUse() async throws {
        let f = try Fixture()
        let pool = Self.pool(f)
        let store = PostgresSchemaStore(pool: pool)
        let loop = try LoopThread()
        defer { loop.stop() }
        let before = try loop.answer(of: Int32.self) { pool.run(Self.echoRead(1).map(\.backend), then: $0) }.get()

        let result = loop.answer(of: Application?.self) { try await store.application(code: "AB\u{0}CD") }
        #expect(registryError(result) == .invalidArgument("text must not contain NUL characters"))
        let after = try loop.answer(of: Int32.self) { pool.run(Self.echoRead(2).map(\.backend), then: $0) }.get()
        #expect(after == before)
    }

    @Test func anUnreachableDatabaseFailsReadsFastWithUnavailable() throws {
        let pool = ConnectionPool(config: PostgresConfig(databaseURL: "postgresql://postgres@127.0.0.1:1/none"))
        let store = PostgresSchemaStore(pool: pool)
        let loop = try LoopThread()
        defer { loop.stop() }

        let started = ContinuousClock.now
        let results = loop.answers(10, of: TokenGrant?.self) { _ in try await store.token(forTokenHash: [1]) }
        #expect(ContinuousClock.now - started < .seconds(5))
        for result in results { #expect(registryError(result) == .unavailable("database unavailable")) }
        #expect(pool.lastFailure?.kind == .connectionFailed)
        #expect(pool.loopStats == LoopSessionStats(open: 0, inFlight: 0, waiting: 0))
    }

    @Test func stoppingTheLoopAnswersReadsInFlightAndWaiting() throws {
        let f = try Fixture()
        let pool = Self.pool(f) {
            $0.loopReadsInFlight = 2
            $0.acquireTimeout = .seconds(60)
            $0.statementTimeout = .seconds(60)
            $0.responseTimeout = .seconds(60)
        }
        let loop = try LoopThread()

        let pending = loop.start(3, of: Int32.self) { _, done in pool.run(Self.sleepRead(30), then: done) }
        let seen = waitUntil(timeoutSeconds: 10) { pool.loopStats == LoopSessionStats(open: 1, inFlight: 2, waiting: 1) }
        #expect(seen, "\(pool.loopStats)")
        let started = ContinuousClock.now
        loop.stop()
        for result in pending.wait() {
            #expect(registryError(result) == .unavailable("the server is shutting down; retry the request"), "\(pool.lastFailure.map { "\($0) \($0.debugDetail)" } ?? "")")
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(pool.loopStats == LoopSessionStats(open: 0, inFlight: 0, waiting: 0))
    }
}

extension StoreStatement {
    /// The same read with its answer transformed.
    func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> StoreStatement<Other> {
        StoreStatement<Other>(statement: statement, parameters: parameters) { [decode] in transform(try decode($0)) }
    }
}

/// Ends the backend `pid` from another session, as an operator or a failover would.
private func terminate(_ pid: Int32, in f: Fixture) throws {
    let killer = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
    try killer.execute(PGStatement("test_terminate", "SELECT pg_terminate_backend($1::integer)"), [pid])
}
