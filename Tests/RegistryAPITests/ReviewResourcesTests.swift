import Dispatch
import HTTPServer
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

    /// A permit taken by a task that holds it until `release` opens; `returned` opens once the
    /// permit is back.
    private struct Holder {
        let release = Latch()
        let returned = Latch()
    }

    private static func takePermit(_ gate: HeavyWorkGate) async -> Holder {
        let holder = Holder()
        let entered = Latch()
        Task {
            do {
                try await gate.holding { () async throws(RegistryError) in
                    entered.open()
                    await holder.release.wait()
                }
            } catch {
                Issue.record("a free permit is taken at once: \(error)")
            }
            holder.returned.open()
        }
        await entered.wait()
        return holder
    }

    /// Waits until `gate` has `count` requests queued.
    private static func queued(_ gate: HeavyWorkGate, _ count: Int) async throws {
        for _ in 0..<10_000 where gate.waiting != count { try await Task.sleep(for: .milliseconds(1)) }
        #expect(gate.waiting == count)
    }

    @Test func withEveryPermitTakenAndNoRoomToWaitTheNextHeavyRequestIsBusy() async throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 0)
        let holder = await Self.takePermit(gate)
        await #expect(throws: HeavyWorkGate.busy) { try await gate.holding { () async throws(RegistryError) in 2 } }
        let answer = ErrorResponse.make(HeavyWorkGate.busy)
        #expect(answer.status == 503)
        #expect(answer.headers.contains { $0.name == "Retry-After" })
        holder.release.open()
        await holder.returned.wait()
        #expect(try await gate.holding { () async throws(RegistryError) in 3 } == 3, "the permit comes back when the work ends")
    }

    /// A request that finds every permit taken is queued, holding no thread, and goes on with
    /// the permit the running work hands it when it ends; a newcomer does not overtake it.
    @Test func aWaitingHeavyRequestRunsWhenAPermitIsReturned() async throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 1, maxWaitSeconds: 60)
        let first = await Self.takePermit(gate)
        let second = Holder()
        let secondEntered = Latch()
        let queuedFirst = Task { () throws(RegistryError) -> Int in
            try await gate.holding { () async throws(RegistryError) -> Int in
                secondEntered.open()
                await second.release.wait()
                return 4
            }
        }
        try await Self.queued(gate, 1)
        first.release.open()
        await secondEntered.wait()
        #expect(gate.waiting == 0, "the returned permit went to the queued request")
        let newcomer = Task { () throws(RegistryError) -> Int in try await gate.holding { () async throws(RegistryError) in 5 } }
        try await Self.queued(gate, 1)
        second.release.open()
        #expect(try await queuedFirst.value == 4)
        #expect(try await newcomer.value == 5)
        #expect(try await gate.holding { () async throws(RegistryError) in 6 } == 6, "the permit is free again")
    }

    @Test func aQueuedRequestIsBusyOnceItHasWaitedItsTime() async throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 1, maxWaitSeconds: 0.1)
        let holder = await Self.takePermit(gate)
        await #expect(throws: HeavyWorkGate.busy) { try await gate.holding { () async throws(RegistryError) in 7 } }
        #expect(gate.waiting == 0)
        holder.release.open()
        await holder.returned.wait()
        #expect(try await gate.holding { () async throws(RegistryError) in 8 } == 8, "the permit went back to the gate, not to the expired request")
    }
}

/// Opens once; every waiter, before or after, goes on.
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}
