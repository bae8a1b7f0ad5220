import EventLoop
import Foundation
import Registry
import Synchronization
import Testing
import TestSupport

@testable import RegistryPostgres

/// A transaction started on an event loop leases one of the loop's transaction sessions from
/// BEGIN to COMMIT and awaits each statement there, holding no thread: the same outcomes as
/// on a pooled session, its own sessions (never shared with reads), a bound on how many, and
/// the pool's timeouts and loss rules.
@Suite struct LoopTransactionTests {
    static func store(_ f: Fixture, _ tune: (inout PostgresConfig) -> Void = { _ in }) -> PostgresSchemaStore {
        PostgresSchemaStore(pool: LoopSessionsTests.pool(f, tune))
    }

    /// A plain publish of `type` by the CLI, as the loop's task runs it.
    static func publish(_ store: PostgresSchemaStore, _ f: Fixture, _ type: String, refusing: Bool = false) async throws -> SchemaVersion {
        let outcome = try await store.publish(
            application: f.application, attributesType: type, version: .nextFree, jsonSchema: #"{"type":"object"}"#, by: .cli,
            comparing: Comparison(limit: 100), once: nil,
            response: { _ in
                if refusing { throw RegistryError.alreadyExists("refused") }
                return PublishAnswer(body: [], auditDetails: [:])
            })
        guard case .published(let schema, _) = outcome else { throw RegistryError.internal("not published") }
        return schema
    }

    /// A transaction that inserts a version of `type` and then writes `statement`, as a publish
    /// writes its audit event; `afterWrite` runs once the write call has returned.
    static func insertThenWrite(
        _ store: PostgresSchemaStore, _ f: Fixture, _ type: String, _ statement: PGStatement, _ parameters: [(any PGParameter)?],
        afterWrite: () -> Void = {}
    ) async throws -> Int32 {
        try await store.pool.transaction { session in
            let publication = try await PostgresPublishTransaction(session: session).insert(
                application: f.application, attributesType: type, version: .nextFree, jsonSchema: #"{"type":"object"}"#,
                by: .cli, metadata: VersionMetadata(), fieldPaths: nil, comparing: Comparison(limit: 100))
            try await session.write(statement, parameters)
            afterWrite()
            return publication.schema.version
        }
    }

    @Test func aTransactionOnTheLoopCommitsOrRollsBackWhole() async throws {
        let f = try Fixture()
        let store = Self.store(f)
        let loop = try LoopThread()
        defer { loop.stop() }

        let published = loop.answers(3, of: Int32.self) { index in try await Self.publish(store, f, "Loop\(index % 2)").version }
        #expect(Set(published.compactMap { try? $0.get() }) == [1, 2], "two of Loop0 (1, 2 in either order), one of Loop1")
        let refused = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Loop0", refusing: true).version }
        #expect(registryError(refused) == .alreadyExists("refused"))

        let versions = try await f.store.list(application: f.application, attributesType: "Loop0", after: nil, limit: nil)
        #expect(versions.map(\.version) == [2, 1], "the refused publish left no version")
        let events = try await f.store.auditEvents(AuditQuery(order: .newestFirst, accountID: f.accountID, applicationID: f.application.id, limit: 10))
        #expect(events.filter { $0.action == .publish }.count == 3, "and no audit event")
        #expect(store.pool.stats.open == 0, "no pooled session was used")
    }

    @Test func transactionSessionsAreKeptApartFromReadsAndReused() async throws {
        let f = try Fixture()
        let store = Self.store(f) { $0.loopTransactions = 2 }
        let loop = try LoopThread()
        defer { loop.stop() }
        let code = f.application.code

        for round in 0..<3 {
            let results = loop.answers(4, of: Bool.self) { index in
                if index % 2 == 0 { return try await Self.publish(store, f, "Kept\(round)").version > 0 }
                return try await store.application(code: code) != nil
            }
            #expect(results.allSatisfy { (try? $0.get()) == true })
        }
        // One read session and at most two transaction sessions, opened once and kept.
        let open = store.pool.loopStats.open
        #expect(open >= 2 && open <= 3, "\(store.pool.loopStats)")
    }

    /// Past its sessions a transaction waits, bounded in number like reads (`loopReadsWaiting`:
    /// one more is refused at once) and in time (`acquireTimeout`: then it is refused as busy).
    @Test func pastItsSessionsTransactionsWaitBoundedInNumberAndTime() throws {
        let f = try Fixture()
        let store = Self.store(f) {
            $0.loopTransactions = 1
            $0.loopReadsWaiting = 1
            $0.acquireTimeout = .seconds(2)
        }
        let loop = try LoopThread()
        defer { loop.stop() }
        _ = try blocking { try await f.publish("Held") }

        let held = try HeldCounter(databaseURL: f.url, attributesType: "Held")
        let holder = loop.start(1, of: Int32.self) { _ in try await Self.publish(store, f, "Held").version }
        #expect(try held.waitingPublish() != nil, "the only transaction session waits on the lock")
        let started = ContinuousClock.now
        let waiter = loop.start(1, of: Int32.self) { _ in try await Self.publish(store, f, "Other").version }
        let refused = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Third").version }
        #expect(registryError(refused) == .unavailable("database busy: too many transactions waiting"), "past the bound: at once")
        #expect(registryError(waiter.wait()[0]) == .unavailable("database busy: no connection free in time"))
        #expect(ContinuousClock.now - started < .seconds(5), "within the acquire timeout")

        try held.release()
        #expect(holder.wait().map { try? $0.get() } == [2])
        let after = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Other").version }
        #expect((try? after.get()) == 1, "the session went back for the next transaction")
    }

    @Test func aTransactionWhoseSessionIsLostFailsAsUnavailableAndTheNextOneWorks() throws {
        let f = try Fixture()
        let store = Self.store(f)
        let loop = try LoopThread()
        defer { loop.stop() }
        _ = try blocking { try await f.publish("Lost") }

        let held = try HeldCounter(databaseURL: f.url, attributesType: "Lost")
        let lost = loop.start(1, of: Int32.self) { _ in try await Self.publish(store, f, "Lost").version }
        let pid = try #require(try held.waitingPublish())
        try held.terminate(pid)
        let error = registryError(lost.wait()[0])
        #expect(error?.code == .unavailable, "\(String(describing: error))")
        try held.release()

        let next = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Lost").version }
        #expect((try? next.get()) == 2, "the lost publish wrote nothing; a new session took the next one")
    }

    /// The BEGIN travels with the first statement and the writes with the COMMIT, one sync
    /// after each batch: a failing write fails the commit, nothing of the transaction stays,
    /// and the one session serves the next transaction.
    @Test func aWriteThatFailsWithTheCommitLeavesNothing() async throws {
        let f = try Fixture()
        let store = Self.store(f) { $0.loopTransactions = 1 }
        let loop = try LoopThread()
        defer { loop.stop() }
        let divide = PGStatement("t_batch_divide", "SELECT 1 / $1::integer")
        let wroteWithoutWaiting = Atomic(false)

        let failed = loop.answer(of: Int32.self) {
            try await Self.insertThenWrite(store, f, "Batched", divide, [0]) { wroteWithoutWaiting.store(true, ordering: .relaxed) }
        }
        let wrote = wroteWithoutWaiting.load(ordering: .relaxed)
        #expect(wrote, "the write was sent with the commit, not on its own")
        let error = try #require(registryError(failed))
        #expect(error.cause?.statement == "t_batch_divide" && error.cause?.sqlState == "22012", "\(String(describing: error.cause))")
        let versions = try await f.store.list(application: f.application, attributesType: "Batched", after: nil, limit: nil)
        #expect(versions.isEmpty, "the version inserted before the failing write was rolled back")

        let next = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Batched").version }
        #expect((try? next.get()) == 1)
        #expect(store.pool.loopStats.open == 1, "the same session took the next transaction")
    }

    /// A write whose text the session refuses before sending (a NUL) refuses its whole batch,
    /// the COMMIT with it: the transaction rolls back and its session stays usable.
    @Test func aWriteRefusedBeforeSendingRefusesTheCommitWithIt() async throws {
        let f = try Fixture()
        let store = Self.store(f) { $0.loopTransactions = 1 }
        let loop = try LoopThread()
        defer { loop.stop() }
        let echo = PGStatement("t_batch_echo", "SELECT $1::text")

        let refused = loop.answer(of: Int32.self) { try await Self.insertThenWrite(store, f, "Refused", echo, ["a\u{0}b"]) }
        #expect(registryError(refused) == .invalidArgument("text must not contain NUL characters"), "the commit was refused")
        let versions = try await f.store.list(application: f.application, attributesType: "Refused", after: nil, limit: nil)
        #expect(versions.isEmpty, "nothing was committed without the write")

        let next = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Refused").version }
        #expect((try? next.get()) == 1)
    }

    /// A first statement that fails fails its BEGIN's batch; a body that throws before sending
    /// anything sends nothing. Either way the session goes back clean.
    @Test func aTransactionThatFailsEarlyLeavesItsSessionClean() throws {
        let f = try Fixture()
        let store = Self.store(f) { $0.loopTransactions = 1 }
        let loop = try LoopThread()
        defer { loop.stop() }
        _ = try blocking { try await f.publish("Early") }

        let taken = loop.answer(of: Int32.self) {
            let outcome = try await store.publish(
                application: f.application, attributesType: "Early", version: .explicit(1), jsonSchema: #"{"type":"object"}"#,
                by: .cli, comparing: Comparison(limit: 100), once: nil, response: { _ in PublishAnswer(body: [], auditDetails: [:]) })
            guard case .published(let schema, _) = outcome else { return 0 }
            return schema.version
        }
        #expect(registryError(taken)?.code == .alreadyExists)
        let unsent = loop.answer(of: Int32.self) {
            try await store.pool.transaction { _ -> Int32 in throw RegistryError.invalidArgument("before any statement") }
        }
        #expect(registryError(unsent) == .invalidArgument("before any statement"))

        let next = loop.answer(of: Int32.self) { try await Self.publish(store, f, "Early").version }
        #expect((try? next.get()) == 2)
        #expect(store.pool.loopStats.open == 1, "one session served all three")
    }

    /// Many publishes at once on two loops, as two event loops' requests: the numbering comes
    /// out exactly from the database's locks.
    @Test func concurrentPublishesOnTwoLoopsNumberEveryVersionOnce() throws {
        let f = try Fixture()
        let store = Self.store(f) { $0.acquireTimeout = .seconds(10) }
        let loops = try (0..<2).map { _ in try LoopThread() }
        defer { for loop in loops { loop.stop() } }
        let started = loops.map { loop in loop.start(16, of: Int32.self) { _ in try await Self.publish(store, f, "Many").version } }
        let versions = try started.flatMap { $0.wait() }.map { try $0.get() }
        #expect(versions.sorted() == Array(1...32))
    }
}
