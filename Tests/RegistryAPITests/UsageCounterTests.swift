import Registry
import Testing

@testable import RegistryAPI

/// The in-memory side of usage: reads merge per key across threads, a drain hands each key
/// over once and empties the counter, and the capacity bounds the entries held.
@Suite struct UsageCounterTests {
    static func key(_ version: Int32, token: Int64 = 1, type: String = "Flight", day: Int32 = 20_000) -> UsageKey {
        UsageKey(applicationID: 7, attributesType: type, version: version, tokenID: token, day: day)
    }

    @Test func readsOfOneKeyMergeIntoOneTallyWithTheLatestTime() {
        let counter = UsageCounter(capacity: 10)
        counter.record(Self.key(1), at: 100)
        counter.record(Self.key(1), at: 300)
        counter.record(Self.key(1), at: 200)
        counter.record(Self.key(2), at: 50)
        let drained = counter.drain()
        #expect(drained.count == 2)
        #expect(drained[Self.key(1)] == UsageTally(reads: 3, lastRead: 300))
        #expect(drained[Self.key(2)] == UsageTally(reads: 1, lastRead: 50))
    }

    @Test func everyPartOfTheKeyTellsReadsApart() {
        let counter = UsageCounter(capacity: 100)
        let keys = [
            Self.key(1), Self.key(2), Self.key(1, token: 2), Self.key(1, day: 20_001), Self.key(1, type: "Flight2"),
            UsageKey(applicationID: 8, attributesType: "Flight", version: 1, tokenID: 1, day: 20_000),
            // Canonically equivalent, but two names to the database.
            Self.key(1, type: "Caf\u{E9}"), Self.key(1, type: "Cafe\u{301}"),
        ]
        for key in keys { counter.record(key, at: 1) }
        let drained = counter.drain()
        #expect(drained.count == keys.count)
        #expect(drained.values.allSatisfy { $0.reads == 1 })
    }

    @Test func aDrainTakesEverythingOnceAndLeavesTheCounterEmpty() {
        let counter = UsageCounter(capacity: 10)
        counter.record(Self.key(1), at: 1)
        #expect(counter.count == 1)
        #expect(counter.drain().count == 1)
        #expect(counter.count == 0)
        #expect(counter.drain().isEmpty)
        counter.record(Self.key(1), at: 2)
        #expect(counter.drain()[Self.key(1)] == UsageTally(reads: 1, lastRead: 2))
    }

    @Test func concurrentReadsOnManyThreadsAreCountedExactly() async {
        let counter = UsageCounter(capacity: 1000)
        let tasks = 8
        let readsPerTask = 2_000
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for read in 0..<readsPerTask { counter.record(Self.key(Int32(read % 5 + 1)), at: Double(task * readsPerTask + read)) }
                }
            }
        }
        let drained = counter.drain()
        #expect(drained.count == 5)
        #expect(drained.values.reduce(0) { $0 + $1.reads } == Int64(tasks * readsPerTask))
        #expect(drained.values.map(\.lastRead).max() == Double(tasks * readsPerTask - 1))
        #expect(counter.count == 0)
    }

    @Test func pastTheCapacityNewKeysAreDroppedAndCountedAsDropped() {
        let counter = UsageCounter(capacity: 3)
        for version in Int32(1)...5 { counter.record(Self.key(version), at: 1) }
        // Keys already held still count.
        counter.record(Self.key(1), at: 2)
        #expect(counter.count == 3)
        #expect(counter.droppedReads == 2)
        let drained = counter.drain()
        #expect(drained.count == 3)
        #expect(drained.values.reduce(0) { $0 + $1.reads } == 4)
        // A drain frees the entries.
        counter.record(Self.key(9), at: 3)
        #expect(counter.count == 1 && counter.droppedReads == 2)
    }

    @Test func aFailedFlushGivesItsCountsBackMergedWithNewReads() {
        let counter = UsageCounter(capacity: 2)
        counter.record(Self.key(1), at: 5)
        counter.record(Self.key(2), at: 5)
        let drained = counter.drain()
        counter.record(Self.key(1), at: 9)
        counter.restore(drained)
        let again = counter.drain()
        #expect(again[Self.key(1)] == UsageTally(reads: 2, lastRead: 9))
        #expect(again[Self.key(2)] == UsageTally(reads: 1, lastRead: 5))
        #expect(counter.droppedReads == 0)
    }

    @Test func theUTCDayOfATime() {
        #expect(UsageKey.day(ofUnixSeconds: 0) == 0)
        #expect(UsageKey.day(ofUnixSeconds: 86_399.9) == 0)
        #expect(UsageKey.day(ofUnixSeconds: 86_400) == 1)
        // 2026-12-01T00:00:00Z
        #expect(UsageKey.day(ofUnixSeconds: 1_796_083_200) == 20_788)
    }
}
