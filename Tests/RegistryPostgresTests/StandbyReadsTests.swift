import Foundation
import Registry
import Testing
import TestSupport

@testable import RegistryPostgres

/// The rule for reads a standby may answer while a primary answers: only a standby that has
/// replayed past the newest change feed position this replica has seen, that lags at most the
/// maximum, after this process's own writes are covered by a feed read; never a primary reached
/// through the standbys' pool. (The paused-replay run of `Tests/Robustness/failover.py` checks
/// it against a real streaming standby.)
@Suite struct StandbyReadsTests {
    static let maxLag = Duration.seconds(2)

    static func position(_ replayed: UInt64?, lag: Duration = .zero, inRecovery: Bool = true) -> ReplayPosition {
        ReplayPosition(inRecovery: inRecovery, replayLSN: replayed, lag: lag)
    }

    static func check(_ required: UInt64) -> StandbyCheck {
        StandbyCheck(required: required, maxLag: maxLag)
    }

    @Test func aStandbyServesOnlyOnceItHasReplayedWhatTheFeedShowed() {
        let check = StandbyCheck(required: 1000, maxLag: Self.maxLag)
        #expect(check.refusal(of: Self.position(999)) == .behind)
        #expect(check.refusal(of: Self.position(1000)) == nil)
        #expect(check.refusal(of: Self.position(5000)) == nil)
        #expect(check.refusal(of: Self.position(nil)) == .behind, "no replay position: not a standby")
        #expect(check.refusal(of: Self.position(5000, inRecovery: false)) == .behind, "a primary reached through the standbys' pool")
    }

    @Test func aStandbyLaggingMoreThanTheMaximumIsSkippedEvenWhenFarEnough() {
        let check = StandbyCheck(required: 1000, maxLag: Self.maxLag)
        #expect(check.refusal(of: Self.position(5000, lag: Self.maxLag)) == nil)
        #expect(check.refusal(of: Self.position(5000, lag: Self.maxLag + .milliseconds(1))) == .lag)
    }

    @Test func nothingGoesToTheStandbyBeforeTheFollowersFirstRead() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        #expect(reads.requirement(committed: 0, application: 1) == .primary(.unknown))
        reads.noteFeedRead(insertLSN: 1000, changed: .restart, covering: 0)
        #expect(reads.requirement(committed: 0, application: 1) == .standby(Self.check(1000)))
    }

    /// A client reads its own write: after a commit through this process, the primary answers
    /// until a feed read that started after it raised the required position.
    @Test func ownWritesGoToThePrimaryUntilAFeedReadCoversThem() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 1000, changed: .restart, covering: 0)
        #expect(reads.requirement(committed: 1, application: 1) == .primary(.ownWrite))
        reads.noteFeedRead(insertLSN: 1200, changed: .applications([1]), covering: 0)
        #expect(
            reads.requirement(committed: 1, application: 1) == .primary(.ownWrite), "a read that started before the commit covers nothing")
        reads.noteFeedRead(insertLSN: 1300, changed: .applications([1]), covering: 1)
        #expect(reads.requirement(committed: 1, application: 1) == .standby(Self.check(1300)))
        #expect(
            reads.requirement(committed: 2, application: 2) == .primary(.ownWrite),
            "own writes are followed for the whole process, whatever application they changed")
    }

    /// A feed read that reported nothing raises no requirement (the changes seen are the
    /// earlier reads'), but still covers the commits noted before it started.
    @Test func aFeedReadWithoutChangesCoversCommitsWithoutRaisingThePosition() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 1000, changed: .restart, covering: 0)
        reads.noteFeedRead(insertLSN: 1900, changed: .nothing, covering: 2)
        #expect(reads.requirement(committed: 2, application: 1) == .standby(Self.check(1000)))
    }

    @Test func theRequiredPositionNeverGoesBack() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 2000, changed: .restart, covering: 3)
        reads.noteFeedRead(insertLSN: 1500, changed: .restart, covering: 1)
        #expect(reads.requirement(committed: 3, application: 1) == .standby(Self.check(2000)))
        reads.noteFeedRead(insertLSN: 3000, changed: .applications([1]), covering: 3)
        reads.noteFeedRead(insertLSN: 2500, changed: .applications([1]), covering: 3)
        #expect(reads.requirement(committed: 3, application: 1) == .standby(Self.check(3000)))
    }

    /// Writes to application 2 raise only application 2's requirement: reads of application 1
    /// still go to a standby that has replayed application 1's changes, however far behind the
    /// feed it is for application 2.
    @Test func changesToAnotherApplicationDoNotRaiseThisOnesRequirement() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 1000, changed: .restart, covering: 0)
        reads.noteFeedRead(insertLSN: 1100, changed: .applications([1]), covering: 0)
        for position in stride(from: UInt64(2000), through: 9000, by: 1000) {
            reads.noteFeedRead(insertLSN: position, changed: .applications([2]), covering: 0)
        }
        #expect(reads.requirement(committed: 0, application: 1) == .standby(Self.check(1100)))
        #expect(reads.requirement(committed: 0, application: 2) == .standby(Self.check(9000)))
        #expect(reads.requirement(committed: 0, application: 3) == .standby(Self.check(1000)), "unchanged since the restart")
        reads.noteFeedRead(insertLSN: 9500, changed: .applications([1, 3]), covering: 0)
        #expect(reads.requirement(committed: 0, application: 1) == .standby(Self.check(9500)))
        #expect(reads.requirement(committed: 0, application: 3) == .standby(Self.check(9500)))
        reads.noteFeedRead(insertLSN: 9700, changed: .restart, covering: 0)
        #expect(reads.requirement(committed: 0, application: 2) == .standby(Self.check(9700)), "a restart raises every application")
        #expect(reads.applicationsTracked == 0, "entries at or below the restart say nothing more")
    }

    @Test func theFiguresCountWhoAnsweredAndWhy() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteServedByStandby()
        reads.noteServedByPrimary(skipping: .lag)
        reads.noteServedByPrimary(skipping: .absent)
        reads.noteServedByPrimary(skipping: .lag)
        let figures = reads.figures
        #expect(figures.servedByStandby == 1)
        #expect(figures.servedByPrimary == 3)
        let byReason = Dictionary(uniqueKeysWithValues: figures.skippedByReason.map { ($0.reason, $0.count) })
        #expect(byReason == ["behind": 0, "lag": 2, "own_write": 0, "unknown": 0, "absent": 1, "failed": 0])
    }

    /// The feed's reads give the primary's WAL insert position, read after their snapshot: at
    /// or past what the primary had inserted before the read.
    @Test func feedReadsCarryThePrimarysInsertPosition() async throws {
        let f = try Fixture()
        let connection = try PGConnection.connect(PostgresConfig(databaseURL: f.url))
        let start = try await PostgresSchemaStore.followStart().run(on: connection)
        let startLSN = try #require(start.insertLSN)
        try await f.publish("Positioned")
        let inserted = try #require(UInt64(connection.simpleQuery("SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint").rows[0].string(0)))
        #expect(inserted > startLSN, "the publish wrote WAL")
        let page = try await PostgresSchemaStore.followRead(after: start, limit: 10).run(on: connection)
        #expect(page.changes.count == 1)
        #expect(try #require(page.position.insertLSN) >= inserted)
    }

    /// The probe tells a primary from a standby: a standbys' pool that reached a primary never
    /// answers these reads (versions, `latest`, lists, the type index, search), the writers'
    /// pool does, and the reason is counted.
    @Test func aPrimaryReachedThroughTheStandbysPoolIsNeverUsed() async throws {
        let f = try Fixture()
        let version = try await f.publish("Routed")
        let pool = ConnectionPool(
            config: PostgresConfig(databaseURL: f.url), standby: PostgresConfig(databaseURL: f.url), standbyReadsMaxLag: Self.maxLag)
        let reads = try #require(pool.standbyReads)
        reads.noteFeedRead(insertLSN: 1, changed: .restart, covering: 0)
        let store = PostgresSchemaStore(pool: pool)
        let application = f.application

        #expect(try await store.schema(application: application, attributesType: "Routed", version: version.version)?.version == version.version)
        let loop = try LoopThread()
        defer { loop.stop() }
        let answers = loop.answers(4, of: SchemaVersion?.self) { _ in
            try await store.schema(application: application, attributesType: "Routed", version: version.version)
        }
        #expect(answers.count == 4)
        for answer in answers { #expect(try answer.get()?.version == version.version) }
        let latest = loop.answer(of: LatestCandidates.self) { 
            try await store.latestCandidates(application: application, attributesType: "Routed")
        }
        #expect(try latest.get().latest == version.version)
        // Lists, the type index and search are routed by the same rule.
        #expect(try await store.list(application: application, attributesType: "Routed", after: nil, limit: 10).map(\.version) == [version.version])
        let list = loop.answer(of: [SchemaVersion].self) { 
            try await store.list(application: application, attributesType: nil, after: nil, limit: 10, includingDisabled: true)
        }
        #expect(try list.get().map(\.version) == [version.version])
        #expect(try await store.types(application: application, filter: TypeFilter(prefix: nil, after: nil), limit: 10).map(\.attributesType) == ["Routed"])
        let query = try SearchQuery(parsing: "Routed")
        let found = loop.answer(of: [SearchResult].self) { 
            try await store.search(application: application, query: query, after: nil, limit: 10)
        }
        #expect(try found.get().map(\.attributesType) == ["Routed"])
        let figures = reads.figures
        #expect(figures.servedByStandby == 0)
        #expect(figures.servedByPrimary == 10)
        #expect(figures.skippedByReason.first { $0.reason == "behind" }?.count == 10)
    }

    /// The change follower raises the required position of the applications its reads
    /// reported changes to, and only theirs: writes to another application leave this one's
    /// requirement where this application's own newest change put it.
    @Test func theFollowerRaisesOnlyTheApplicationsThatChanged() async throws {
        let f = try Fixture()
        let other = try Fixture.makeApplication(admin: f.admin, store: f.store, accountID: f.accountID)
        let pool = ConnectionPool(
            config: PostgresConfig(databaseURL: f.url), standby: PostgresConfig(databaseURL: f.url), standbyReadsMaxLag: Self.maxLag)
        defer { pool.close() }
        let reads = try #require(pool.standbyReads)
        let started = DispatchSemaphore(value: 0)
        let follower = ChangeFollower(
            pool: pool, fallbackInterval: .milliseconds(50), onChanges: { _ in }, onTokenChange: {}, onRestart: { started.signal() })
        follower.start()
        defer { follower.stop() }
        #expect(started.wait(timeout: .now() + 10) == .success)
        func required(_ application: Application) -> UInt64 {
            guard case .standby(let check) = reads.requirement(committed: 0, application: application.id) else { return 0 }
            return check.required
        }
        let floor = required(f.application)
        #expect(floor > 0, "the follower's first read raised every application")
        #expect(required(other) == floor)

        try await f.publish("Mine")
        let mine = try eventually({ required(f.application) }, until: { $0 > floor })
        #expect(mine > floor)
        #expect(required(other) == floor, "a change to this application does not raise the other")

        for index in 0..<3 { _ = try await f.publication("Elsewhere\(index)", in: other) }
        let elsewhere = try eventually({ required(other) }, until: { $0 > mine })
        #expect(elsewhere > mine)
        #expect(required(f.application) == mine, "writes to another application leave this one's requirement")
    }

    /// Every read a standby may answer names its application, and an empty answer (no version,
    /// no `latest`, an empty page of a list, of the type index or of search) is confirmed on the
    /// primary, a non-empty one is not.
    @Test func aStandbysEmptyAnswersAreConfirmedOnThePrimary() async throws {
        let f = try Fixture()
        let version = try await f.publish("Confirmed")
        let application = f.application
        func check<Value>(_ statement: StoreStatement<Value>, empty: Value, found: Value) throws {
            let read = try #require(statement.standbyRead)
            #expect(read.application == application.id)
            #expect(read.confirms(empty))
            #expect(!read.confirms(found))
        }
        func run<Value>(_ statement: StoreStatement<Value>) throws -> Value {
            try f.pool.withConnection { try statement.run(on: $0) }
        }
        let schema = PostgresSchemaStore.schemaRead(application: application, attributesType: "Confirmed", version: version.version)
        try check(schema, empty: nil, found: try run(schema))
        let latest = PostgresSchemaStore.latestCandidatesRead(application: application, attributesType: "Confirmed")
        try check(latest, empty: LatestCandidates(pinned: nil, newestActive: nil, newestDeprecated: nil), found: try run(latest))
        let list = PostgresSchemaStore.listRead(
            application: application, attributesType: nil, after: nil, limit: nil, includingDisabled: false)
        try check(list, empty: [], found: try run(list))
        let types = PostgresSchemaStore.typesRead(application: application, filter: TypeFilter(prefix: nil, after: nil), limit: nil)
        try check(types, empty: [], found: try run(types))
        let search = PostgresSchemaStore.searchRead(application: application, query: try SearchQuery(parsing: "Confirmed"), after: nil, limit: 10)
        try check(search, empty: [], found: try run(search))
        #expect(try !run(search).isEmpty)
    }

    @Test func withoutAMaximumLagNothingIsRouted() {
        let pool = ConnectionPool(
            config: PostgresConfig(databaseURL: "postgresql://unused@127.0.0.1:1/none"),
            standby: PostgresConfig(databaseURL: "postgresql://unused@127.0.0.1:1/none"))
        #expect(pool.standbyReads == nil)
    }
}
