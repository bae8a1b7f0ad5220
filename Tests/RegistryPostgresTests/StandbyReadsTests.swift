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
        #expect(reads.requirement(committed: 0) == .primary(.unknown))
        reads.noteFeedRead(insertLSN: 1000, covering: 0)
        #expect(reads.requirement(committed: 0) == .standby(StandbyCheck(required: 1000, maxLag: Self.maxLag)))
    }

    /// A client reads its own write: after a commit through this process, the primary answers
    /// until a feed read that started after it raised the required position.
    @Test func ownWritesGoToThePrimaryUntilAFeedReadCoversThem() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 1000, covering: 0)
        #expect(reads.requirement(committed: 1) == .primary(.ownWrite))
        reads.noteFeedRead(insertLSN: 1200, covering: 0)
        #expect(reads.requirement(committed: 1) == .primary(.ownWrite), "a read that started before the commit covers nothing")
        reads.noteFeedRead(insertLSN: 1300, covering: 1)
        #expect(reads.requirement(committed: 1) == .standby(StandbyCheck(required: 1300, maxLag: Self.maxLag)))
    }

    /// A feed read that reported nothing raises no requirement (the changes seen are the
    /// earlier reads'), but still covers the commits noted before it started.
    @Test func aFeedReadWithoutChangesCoversCommitsWithoutRaisingThePosition() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 1000, covering: 0)
        reads.noteFeedRead(insertLSN: nil, covering: 2)
        #expect(reads.requirement(committed: 2) == .standby(StandbyCheck(required: 1000, maxLag: Self.maxLag)))
    }

    @Test func theRequiredPositionNeverGoesBack() {
        let reads = StandbyReads(maxLag: Self.maxLag)
        reads.noteFeedRead(insertLSN: 2000, covering: 3)
        reads.noteFeedRead(insertLSN: 1500, covering: 1)
        #expect(reads.requirement(committed: 3) == .standby(StandbyCheck(required: 2000, maxLag: Self.maxLag)))
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
    @Test func feedReadsCarryThePrimarysInsertPosition() throws {
        let f = try Fixture()
        try f.pool.withConnection { connection in
            let start = try PostgresSchemaStore.followStart().run(on: connection)
            let startLSN = try #require(start.insertLSN)
            try f.publish("Positioned")
            let inserted = try #require(UInt64(connection.simpleQuery("SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint").rows[0].string(0)))
            #expect(inserted > startLSN, "the publish wrote WAL")
            let page = try PostgresSchemaStore.followRead(after: start, limit: 10).run(on: connection)
            #expect(page.changes.count == 1)
            #expect(try #require(page.position.insertLSN) >= inserted)
        }
    }

    /// The probe tells a primary from a standby: a standbys' pool that reached a primary never
    /// answers these reads, the writers' pool does, and the reason is counted.
    @Test func aPrimaryReachedThroughTheStandbysPoolIsNeverUsed() throws {
        let f = try Fixture()
        let version = try f.publish("Routed")
        let pool = ConnectionPool(
            config: PostgresConfig(databaseURL: f.url), standby: PostgresConfig(databaseURL: f.url), standbyReadsMaxLag: Self.maxLag)
        let reads = try #require(pool.standbyReads)
        reads.noteFeedRead(insertLSN: 1, covering: 0)
        let store = PostgresSchemaStore(pool: pool)
        let application = f.application

        #expect(try store.schema(application: application, attributesType: "Routed", version: version.version)?.version == version.version)
        let loop = try LoopThread()
        defer { loop.stop() }
        let answers = loop.answers(4, of: SchemaVersion?.self) { _, done in
            store.schema(application: application, attributesType: "Routed", version: version.version, then: done)
        }
        #expect(answers.count == 4)
        for answer in answers { #expect(try answer.get()?.version == version.version) }
        let latest = loop.answer(of: LatestCandidates.self) { done in
            store.latestCandidates(application: application, attributesType: "Routed", then: done)
        }
        #expect(try latest.get().latest == version.version)
        let figures = reads.figures
        #expect(figures.servedByStandby == 0)
        #expect(figures.servedByPrimary == 6)
        #expect(figures.skippedByReason.first { $0.reason == "behind" }?.count == 6)
    }

    @Test func withoutAMaximumLagNothingIsRouted() {
        let pool = ConnectionPool(
            config: PostgresConfig(databaseURL: "postgresql://unused@127.0.0.1:1/none"),
            standby: PostgresConfig(databaseURL: "postgresql://unused@127.0.0.1:1/none"))
        #expect(pool.standbyReads == nil)
    }
}
