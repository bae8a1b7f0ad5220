import Registry
import Testing

@testable import RegistryAPI

/// The response cache's capacity bounds what it costs the process, not just its bodies: each
/// entry counts its heap blocks (body, tag, type name) and the cache's own bookkeeping.
@Suite struct ResponseCacheAccountingTests {
    static func key(_ version: Int32) -> ResponseCache.Key {
        ResponseCache.Key(applicationID: 1, attributesType: "DeliveryAttributes", version: version, kind: .schema)
    }

    static let etag = "\"schema-0123456789abcdef0123456789abcdef\""

    @Test func anEntryCountsItsBlocksAndTheCachesBookkeeping() {
        let cache = ResponseCache(capacityBytes: 8 << 20)
        let body = HeapSize.exact([UInt8](repeating: 65, count: 1000))
        cache.insert(ResponseCache.Entry(body: body, etag: Self.etag), for: Self.key(1), readAt: cache.ticket(Self.key(1)))
        let overhead = ByteBoundedCache<ResponseCache.Key, ResponseCache.Entry>.entryOverhead
        #expect(overhead >= MemoryLayout<ResponseCache.Key>.stride + MemoryLayout<ResponseCache.Entry>.stride)
        #expect(
            cache.statistics.bytes
                >= body.capacity + Self.etag.utf8.count + "DeliveryAttributes".utf8.count + overhead + 3 * 32)
    }

    @Test func aRenderedBodysSpareCapacityIsNotKept() throws {
        let cache = ResponseCache(capacityBytes: 8 << 20)
        var body: [UInt8] = []
        body.reserveCapacity(64 << 10)
        body += Array("{\"type\":\"object\"}".utf8)
        cache.insert(ResponseCache.Entry(body: body, etag: Self.etag), for: Self.key(1), readAt: cache.ticket(Self.key(1)))
        let stored = try #require(cache.entry(Self.key(1)))
        #expect(stored.body == body)
        #expect(stored.body.capacity < 1024)
        #expect(cache.statistics.bytes < 2048)
    }

    @Test func manySmallEntriesStayWithinTheCapacityBookkeepingIncluded() {
        let capacity = 1 << 20
        let cache = ResponseCache(capacityBytes: capacity)
        for version in 1...20_000 {
            cache.insert(ResponseCache.Entry(body: [1], etag: Self.etag), for: Self.key(Int32(version)), readAt: cache.ticket(Self.key(Int32(version))))
        }
        let figures = cache.statistics
        #expect(figures.bytes <= capacity)
        let perEntry = MemoryLayout<ResponseCache.Key>.stride + MemoryLayout<ResponseCache.Entry>.stride + 1 + Self.etag.utf8.count
        #expect(figures.entries * perEntry <= capacity, "\(figures.entries) entries cost more than the capacity")
    }
}
