import Dispatch
import Registry
import Synchronization
import Testing

@testable import RegistryAPI

/// The outline cache and the heavy-work gate that bound what compatibility reviews cost.
@Suite struct ReviewResourcesTests {
    static func schema(_ index: Int) -> String {
        #"{"type":"object","properties":{"field\#(index)":{"type":"string"}}}"#
    }

    static func earlier(_ version: Int32, _ text: String) -> EarlierSchema {
        EarlierSchema(version: version, contentHash: SHA256.hash(text.utf8), jsonSchema: text)
    }

    @Test func anEarlierTextIsOutlinedOnceAndKeyedByItsSHA256() throws {
        let cache = CompatibilityOutlineCache(capacityBytes: 1 << 20)
        let text = Self.schema(1)
        let first = try #require(cache.compared(Self.earlier(1, text)))
        let again = try #require(cache.compared(Self.earlier(7, text)))
        #expect(cache.statistics.entries == 1)
        #expect(again.version == 7)
        #expect(again.outline == first.outline)
        #expect(first.outline == CompatibilityOutline(document: try SchemaRules.validate(text)))
    }

    @Test func aTextThatNoLongerPassesTheRulesIsSkippedAndNotKept() {
        let cache = CompatibilityOutlineCache(capacityBytes: 1 << 20)
        #expect(cache.compared(Self.earlier(1, #"{"type":"object","properties":[]}"#)) == nil)
        #expect(cache.statistics.entries == 0)
    }

    @Test func outlinesStayWithinTheirBytes() {
        let cache = CompatibilityOutlineCache(capacityBytes: 4_000)
        for index in 0..<200 { _ = cache.compared(Self.earlier(Int32(index + 1), Self.schema(index))) }
        #expect(cache.statistics.bytes <= 4_000)
        #expect(cache.statistics.entries > 0)
    }

    @Test func anEntryCountsTheOutlinesBlocksItsKeyAndTheCachesBookkeeping() throws {
        let cache = CompatibilityOutlineCache(capacityBytes: 1 << 20)
        let text = Self.schema(1)
        let outline = try #require(cache.compared(Self.earlier(1, text))).outline
        let overhead = ByteBoundedCache<DigestKey, CompatibilityOutline>.entryOverhead
        #expect(overhead >= MemoryLayout<DigestKey>.stride + MemoryLayout<CompatibilityOutline>.stride)
        #expect(cache.statistics.bytes == outline.heapSize + HeapSize.of(SHA256.hash(text.utf8)) + overhead)
    }

    @Test func manyOutlinesStayWithinTheCapacityBookkeepingIncluded() {
        let capacity = 64 << 10
        let cache = CompatibilityOutlineCache(capacityBytes: capacity)
        for index in 0..<2_000 { _ = cache.compared(Self.earlier(Int32(index + 1), Self.schema(index))) }
        let figures = cache.statistics
        #expect(figures.bytes <= capacity)
        let perEntry = ByteBoundedCache<DigestKey, CompatibilityOutline>.entryOverhead + HeapSize.blockOverhead + 32
        #expect(figures.entries * perEntry <= capacity, "\(figures.entries) entries cost more than the capacity")
    }

    @Test func anOutlineTheStoreNeedNotReadStaysAtHandForTheReviewEvenIfEvicted() throws {
        let text = Self.schema(1)
        let cache = CompatibilityOutlineCache(capacityBytes: 2_000)
        _ = try #require(cache.compared(Self.earlier(1, text)))
        let review = cache.forReview(limit: 100, mayBeRefused: false)
        #expect(review.comparison.needsText(SHA256.hash(text.utf8)) == false)
        #expect(review.comparison.needsText(SHA256.hash(Self.schema(2).utf8)) == true)
        for index in 3..<100 { _ = cache.compared(Self.earlier(Int32(index), Self.schema(index))) }
        let unread = EarlierSchema(version: 1, contentHash: SHA256.hash(text.utf8), jsonSchema: nil)
        #expect(cache.compared(unread) == nil, "evicted from the cache")
        #expect(review.compared(unread)?.outline == CompatibilityOutline(document: try SchemaRules.validate(text)))
    }

    /// Holds the gate's only permit on another thread until `release` is signalled.
    private func holdPermit(_ gate: HeavyWorkGate, release: DispatchSemaphore) -> DispatchSemaphore {
        let holding = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? gate.run { () throws(RegistryError) in
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        return done
    }

    @Test func withEveryPermitTakenAndNoRoomToWaitTheNextHeavyRequestIsBusy() throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 0)
        let release = DispatchSemaphore(value: 0)
        let done = holdPermit(gate, release: release)
        #expect(throws: HeavyWorkGate.busy) { try gate.run { () throws(RegistryError) in 1 } }
        let answer = ErrorResponse.make(HeavyWorkGate.busy)
        #expect(answer.status == 503)
        #expect(answer.headers.contains { $0.name == "Retry-After" })
        #expect(try gate.run(heavy: false) { () throws(RegistryError) in 2 } == 2)
        release.signal()
        done.wait()
        #expect(try gate.run { () throws(RegistryError) in 3 } == 3)
    }

    @Test func aWaitingHeavyRequestRunsWhenAPermitIsReturned() throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 1, maxWaitSeconds: 60)
        let release = DispatchSemaphore(value: 0)
        let done = holdPermit(gate, release: release)
        let waited = DispatchSemaphore(value: 0)
        let outcome = Mutex<Int?>(nil)
        DispatchQueue.global().async {
            let value = try? gate.run { () throws(RegistryError) in 4 }
            outcome.withLock { $0 = value }
            waited.signal()
        }
        release.signal()
        done.wait()
        waited.wait()
        #expect(outcome.withLock { $0 } == 4)
    }
}
