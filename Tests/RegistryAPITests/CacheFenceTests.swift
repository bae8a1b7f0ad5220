import Testing

@testable import RegistryAPI

/// The fence is raised exactly when the follower's last read is older than the bound it gave.
@Suite struct CacheFenceTests {
    @Test func neverRaisedBeforeAFirstRead() {
        #expect(!CacheFence().isRaised)
    }

    @Test func raisedOnlyOnceTheBoundOfTheLastReadHasPassed() {
        let fence = CacheFence()
        fence.noteRead(bound: .seconds(3600))
        #expect(!fence.isRaised)
        fence.noteRead(bound: .seconds(-1))
        #expect(fence.isRaised)
        fence.noteRead(bound: .seconds(3600))
        #expect(!fence.isRaised, "a read lowers it again")
    }

    /// While raised the version caches neither answer nor keep anything.
    @Test func aRaisedFenceHidesWhatIsCachedAndKeepsNothingNew() {
        let fence = CacheFence()
        let cache = ResponseCache(capacityBytes: 8 << 20, guardedBy: CacheGuard(fence: fence))
        let key = ResponseCache.Key(applicationID: 1, attributesType: "T", version: 1, kind: .schema)
        cache.insert(ResponseCache.Entry(body: Array("{}".utf8), etag: "\"a\""), for: key, readAt: cache.ticket(key))
        #expect(cache.entry(key) != nil)
        fence.noteRead(bound: .seconds(-1))
        #expect(cache.entry(key) == nil)
        let other = ResponseCache.Key(applicationID: 1, attributesType: "T", version: 2, kind: .schema)
        cache.insert(ResponseCache.Entry(body: Array("{}".utf8), etag: "\"b\""), for: other, readAt: cache.ticket(other))
        fence.noteRead(bound: .seconds(3600))
        #expect(cache.entry(key) != nil, "the entry stayed; only the fence hid it")
        #expect(cache.entry(other) == nil, "nothing is kept while fenced")

        let latest = LatestVersions(enabled: true, guardedBy: CacheGuard(fence: fence))
        let type = LatestVersions.Key(applicationID: 1, attributesType: "T")
        latest.remember(3, for: type, readAt: latest.ticket(type))
        #expect(latest.version(type) == 3)
        fence.noteRead(bound: .seconds(-1))
        #expect(latest.version(type) == nil)
    }
}
