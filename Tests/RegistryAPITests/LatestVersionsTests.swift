import Registry
@testable import RegistryAPI
import Testing

/// The memory behind `latest`: what a committed change forgets, and that a read which raced a
/// publish is not remembered.
@Suite struct LatestVersionsTests {
    private static func caches() -> Caches {
        Caches(CacheSettings(responseBytes: 1 << 20), clock: { 0 })
    }

    @Test func aPublishOrDeleteForgetsOnlyThatType() {
        let caches = Self.caches()
        let colon = LatestVersions.Key(applicationID: 7, attributesType: "Flight:Attributes")
        let other = LatestVersions.Key(applicationID: 7, attributesType: "Taxi")
        let elsewhere = LatestVersions.Key(applicationID: 8, attributesType: "Flight:Attributes")
        for (kind, version) in [(ChangeKind.published, Int32(3)), (.deleted, 2)] {
            for key in [colon, other, elsewhere] { caches.latest.remember(5, for: key, readAt: caches.latest.ticket(key)) }
            caches.forget(CommittedChange(applicationID: 7, kind: kind, attributesType: "Flight:Attributes", version: version))
            #expect(caches.latest.version(colon) == nil, "\(kind)")
            #expect(caches.latest.version(other) == 5, "\(kind)")
            #expect(caches.latest.version(elsewhere) == 5, "\(kind)")
        }
    }

    /// No cache holds a policy: publishes read theirs in their own statement.
    @Test func aPolicyChangeForgetsNothing() {
        let caches = Self.caches()
        let key = LatestVersions.Key(applicationID: 7, attributesType: "Governed")
        caches.latest.remember(4, for: key, readAt: caches.latest.ticket(key))
        for type in [nil, "Governed"] {
            caches.forget(CommittedChange(applicationID: 7, kind: .policyChanged, attributesType: type, version: nil))
        }
        #expect(caches.latest.version(key) == 4)
    }

    @Test func namesThatSwiftConsidersEqualAreDifferentTypes() {
        let latest = LatestVersions(enabled: true)
        let composed = LatestVersions.Key(applicationID: 1, attributesType: "Caf\u{E9}")
        let decomposed = LatestVersions.Key(applicationID: 1, attributesType: "Cafe\u{301}")
        latest.remember(4, for: composed, readAt: latest.ticket(composed))
        #expect(latest.version(decomposed) == nil)
        #expect(latest.version(composed) == 4)
    }

    @Test func aReadThatRacedAnInvalidationIsNotRemembered() {
        let latest = LatestVersions(enabled: true)
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Raced")
        let before = latest.ticket(key)
        latest.invalidate(key)  // a publish lands while the database read is under way
        latest.remember(1, for: key, readAt: before)
        #expect(latest.version(key) == nil)
        latest.remember(2, for: key, readAt: latest.ticket(key))
        #expect(latest.version(key) == 2)
    }

    @Test func disabledWhenResponsesAreNotCached() {
        let caches = Caches(CacheSettings(responseBytes: 0), clock: { 0 })
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Off")
        caches.latest.remember(1, for: key, readAt: caches.latest.ticket(key))
        #expect(caches.latest.version(key) == nil)
    }
}

/// A replica learns every application's changes from the feed: one must never empty the caches,
/// or every publish anywhere would flush every replica. This goes through the entry point the
/// change follower calls.
@Suite struct CommittedChangeTests {
    @Test func aChangeOfAnotherApplicationKeepsTheCaches() {
        let api = RegistryAPI(store: nil, caching: CacheSettings(responseBytes: 1 << 20))
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Kept")
        api.caches.latest.remember(3, for: key, readAt: api.caches.latest.ticket(key))
        api.apply([CommittedChange(applicationID: 2, kind: .published, attributesType: "Kept", version: 1)])
        #expect(api.caches.latest.version(key) == 3)
        api.apply([CommittedChange(applicationID: 1, kind: .published, attributesType: "Kept", version: 4)])
        #expect(api.caches.latest.version(key) == nil)
    }
}
