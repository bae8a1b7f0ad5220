import RegistryAPI
import Testing

@Suite struct ByteBoundedCacheTests {
    @Test func returnsWhatWasInserted() {
        let cache = ByteBoundedCache<String, Int>(capacityBytes: 100)
        cache.insert(1, for: "a", cost: 10)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "b") == nil)
    }

    @Test func evictsTheLeastRecentlyUsedToStayWithinItsBytes() {
        let cache = ByteBoundedCache<String, Int>(capacityBytes: 30)
        cache.insert(1, for: "a", cost: 10)
        cache.insert(2, for: "b", cost: 10)
        cache.insert(3, for: "c", cost: 10)
        _ = cache.value(for: "a")
        cache.insert(4, for: "d", cost: 10)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        #expect(cache.value(for: "d") == 4)
        #expect(cache.statistics.bytes == 30)
    }

    @Test func neverStoresAValueLargerThanItself() {
        let cache = ByteBoundedCache<String, Int>(capacityBytes: 10)
        cache.insert(1, for: "big", cost: 11)
        #expect(cache.value(for: "big") == nil)
        #expect(cache.statistics.bytes == 0)
    }

    @Test func zeroCapacityDisablesIt() {
        let cache = ByteBoundedCache<String, Int>(capacityBytes: 0)
        cache.insert(1, for: "a", cost: 0)
        #expect(cache.value(for: "a") == nil)
    }

    @Test func replacingAKeyAccountsItsNewCost() {
        let cache = ByteBoundedCache<String, Int>(capacityBytes: 100)
        cache.insert(1, for: "a", cost: 60)
        cache.insert(2, for: "a", cost: 20)
        #expect(cache.value(for: "a") == 2)
        #expect(cache.statistics.bytes == 20)
        #expect(cache.statistics.entries == 1)
    }

    @Test func removesMatchingKeysAndEverything() {
        let cache = ByteBoundedCache<String, Int>(capacityBytes: 100)
        for (i, key) in ["x1", "x2", "y1"].enumerated() { cache.insert(i, for: key, cost: 1) }
        cache.removeAll { $0.hasPrefix("x") }
        #expect(cache.value(for: "x1") == nil)
        #expect(cache.value(for: "y1") == 2)
        cache.removeAll()
        #expect(cache.value(for: "y1") == nil)
        #expect(cache.statistics.entries == 0)
    }

    @Test func releasesWhatItRemovesAtOnce() {
        let cache = ByteBoundedCache<String, Tracked>(capacityBytes: 20)
        weak var evicted: Tracked?
        weak var removed: Tracked?
        do {
            let first = Tracked(), second = Tracked(), third = Tracked()
            (evicted, removed) = (first, third)
            cache.insert(first, for: "a", cost: 10)
            cache.insert(second, for: "b", cost: 10)
            // Evicts both and takes the second's slot: the first's stays free.
            cache.insert(third, for: "c", cost: 20)
        }
        #expect(evicted == nil)
        #expect(cache.value(for: "c") != nil)
        cache.removeAll { $0 == "c" }
        #expect(removed == nil)
    }

    @Test func staysConsistentUnderConcurrentUse() async {
        let cache = ByteBoundedCache<Int, Int>(capacityBytes: 500)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<2000 {
                        let key = (i * 7 + worker) % 300
                        if cache.value(for: key) == nil { cache.insert(key, for: key, cost: 1 + key % 5) }
                    }
                }
            }
        }
        #expect(cache.statistics.bytes <= 500)
        for key in 0..<300 { if let value = cache.value(for: key) { #expect(value == key) } }
    }
}

/// A value whose release a test can see through a weak reference.
private final class Tracked: Sendable {}
