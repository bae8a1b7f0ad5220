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

    /// The value a step answers with, following it right here: work runs on this thread, and a
    /// queued step must already have been admitted or refused.
    private static func value(_ step: Step) throws(RegistryError) -> Int? {
        switch step {
        case .respond(let response): return Int(String(decoding: response.body, as: UTF8.self))
        case .work(let work): return try value(work())
        case .later(let start):
            let next = Mutex<Result<Step, RegistryError>?>(nil)
            start { result in next.withLock { $0 = result } }
            guard let result = next.withLock({ $0 }) else { return nil }
            return try value(result.get())
        case .wait: return nil
        }
    }

    /// Admits a work answering 1 while a permit is free; running it returns the permit.
    private static func takePermit(_ gate: HeavyWorkGate) throws -> Step.Work {
        guard case .work(let holding) = try gate.admit({ Self.answer(1) }) else {
            throw RegistryError.internal("a free permit admits the work for a handler thread")
        }
        return holding
    }

    private static func answer(_ number: Int) -> Step {
        .respond(HTTPResponse(status: 200, body: Array(String(number).utf8)))
    }

    @Test func withEveryPermitTakenAndNoRoomToWaitTheNextHeavyRequestIsBusy() throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 0)
        let holding = try Self.takePermit(gate)
        #expect(throws: HeavyWorkGate.busy) { try gate.admit { Self.answer(2) } }
        let answer = ErrorResponse.make(HeavyWorkGate.busy)
        #expect(answer.status == 503)
        #expect(answer.headers.contains { $0.name == "Retry-After" })
        #expect(try Self.value(gate.admit(heavy: false) { Self.answer(2) }) == 2)
        #expect(try Self.value(holding()) == 1, "the permit comes back when the work ends")
        #expect(try Self.value(gate.admit { Self.answer(3) }) == 3)
    }

    /// A request that finds every permit taken is queued, holding no thread, and goes on with
    /// the permit the running work hands it when it ends; a newcomer does not overtake it.
    @Test func aWaitingHeavyRequestRunsWhenAPermitIsReturned() throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 1, maxWaitSeconds: 60)
        let holding = try Self.takePermit(gate)
        guard case .later(let start) = try gate.admit({ Self.answer(4) }) else {
            Issue.record("with every permit taken, the request is queued")
            return
        }
        let next = Mutex<Result<Step, RegistryError>?>(nil)
        start { result in next.withLock { $0 = result } }
        #expect(next.withLock { $0 } == nil, "still waiting")
        #expect(try Self.value(holding()) == 1)
        let admitted = try #require(next.withLock { $0 })
        guard case .later = try gate.admit({ Self.answer(5) }) else {
            Issue.record("the permit went to the queued request: a newcomer waits")
            return
        }
        #expect(try Self.value(admitted.get()) == 4)
        #expect(try Self.value(gate.admit { Self.answer(6) }) == 6, "the permit is free again")
    }

    @Test func aQueuedRequestIsBusyOnceItHasWaitedItsTime() throws {
        let gate = HeavyWorkGate(permits: 1, maxWaiting: 1, maxWaitSeconds: 0.1)
        let holding = try Self.takePermit(gate)
        guard case .later(let start) = try gate.admit({ Self.answer(7) }) else {
            Issue.record("with every permit taken, the request is queued")
            return
        }
        let refused = DispatchSemaphore(value: 0)
        let next = Mutex<Result<Step, RegistryError>?>(nil)
        start { result in
            next.withLock { $0 = result }
            refused.signal()
        }
        #expect(refused.wait(timeout: .now() + 10) == .success)
        #expect(throws: HeavyWorkGate.busy) { try next.withLock { $0 }?.get() }
        #expect(try Self.value(holding()) == 1, "the permit goes back to the gate, not to the expired request")
        #expect(try Self.value(gate.admit { Self.answer(8) }) == 8)
    }
}
