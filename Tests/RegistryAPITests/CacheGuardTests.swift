import Registry
@testable import RegistryAPI
import Testing

/// The caches' one race guard: a fill keeps what it read only if no change to its type was
/// forgotten while it read, whichever cache the change touched.
@Suite struct CacheGuardTests {
    private static func caches() -> Caches {
        Caches(CacheSettings(responseBytes: 1 << 20), clock: { 0 })
    }

    private static let body = ResponseCache.Entry(body: Array("{}".utf8), etag: "\"a\"")

    /// Fills `key` through the owner, with `meanwhile` happening during the read.
    private static func fill(_ caches: Caches, _ key: ResponseCache.Key, meanwhile: () -> Void = {}) async throws {
        _ = try await caches.response(key) { () async throws(RegistryError) in
            meanwhile()
            return body
        }
    }

    private static func key(_ attributesType: String, kind: ResponseCache.Kind = .schema) -> ResponseCache.Key {
        ResponseCache.Key(applicationID: 1, attributesType: attributesType, version: 1, kind: kind)
    }

    /// A body read while its version was deleted is not kept; one read with no change meanwhile is.
    @Test func aResponseReadWhileItsVersionWasDeletedIsNotKept() async throws {
        let caches = Self.caches()
        let key = Self.key("Raced")
        try await Self.fill(caches, key) {
            caches.forget(CommittedChange(applicationID: 1, kind: .deleted, attributesType: "Raced", version: 1))
        }
        #expect(caches.responses.entry(key) == nil, "the raced body was kept")
        try await Self.fill(caches, key)
        #expect(caches.responses.entry(key) != nil, "a body read with no change meanwhile is kept")
    }

    /// `latest` read while the type was published is not remembered.
    @Test func aLatestReadWhileTheTypeWasPublishedIsNotRemembered() async throws {
        let caches = Self.caches()
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Raced")
        let raced = try await caches.latestVersion(key) { () async throws(RegistryError) in
            caches.forget(CommittedChange(applicationID: 1, kind: .published, attributesType: "Raced", version: 2))
            return 1
        }
        #expect(raced == 1)
        let next = try await caches.latestVersion(key) { () async throws(RegistryError) in 2 }
        #expect(next == 2, "the superseded version was remembered")
        let known = try await caches.latestVersion(key) { () async throws(RegistryError) in 3 }
        #expect(known == 2, "a version read with no change meanwhile is remembered")
    }

    /// A publish moves only `latest`: a body read meanwhile is kept.
    @Test func aPublishDuringABodyReadKeepsTheBody() async throws {
        let caches = Self.caches()
        let key = Self.key("Kept")
        try await Self.fill(caches, key) {
            caches.forget(CommittedChange(applicationID: 1, kind: .published, attributesType: "Kept", version: 2))
        }
        #expect(caches.responses.entry(key) != nil)
    }

    /// A flush (changes may have been missed) guards every type.
    @Test func aFlushDuringAReadKeepsNothing() async throws {
        let caches = Self.caches()
        let key = Self.key("Flushed", kind: .form)
        try await Self.fill(caches, key) { caches.flush() }
        #expect(caches.responses.entry(key) == nil)
    }

    /// The check runs under the filled cache's lock: a refused fill stores nothing.
    @Test func aRefusedInsertStoresNothing() {
        let cache = ByteBoundedCache<Int, Int>(capacityBytes: 1 << 10)
        cache.insert(1, for: 1, cost: 8, if: { false })
        cache.insert(2, for: 2, cost: 8)
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 2) == 2)
    }
}
