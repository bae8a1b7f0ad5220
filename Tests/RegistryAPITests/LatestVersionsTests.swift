@testable import RegistryAPI
import Testing

/// The memory behind `latest`: what a notification forgets, and that a read which raced a
/// publish is not remembered.
@Suite struct LatestVersionsTests {
    private static func caches() -> Caches {
        Caches(CacheSettings(responseBytes: 1 << 20), clock: { 0 })
    }

    @Test func aPublishOrDeleteNotificationForgetsOnlyThatType() {
        let caches = Self.caches()
        let colon = LatestVersions.Key(applicationID: 7, attributesType: "Flight:Attributes")
        let other = LatestVersions.Key(applicationID: 7, attributesType: "Taxi")
        for payload in ["schema_published|7:3:Flight:Attributes", "schema_deleted|7:2:Flight:Attributes"] {
            caches.latest.remember(2, for: colon, readAt: caches.latest.generation(colon))
            caches.latest.remember(5, for: other, readAt: caches.latest.generation(other))
            caches.apply(notification: payload)
            #expect(caches.latest.version(colon) == nil, "\(payload)")
            #expect(caches.latest.version(other) == 5, "\(payload)")
        }
    }

    @Test func namesThatSwiftConsidersEqualAreDifferentTypes() {
        let latest = LatestVersions(enabled: true)
        let composed = LatestVersions.Key(applicationID: 1, attributesType: "Caf\u{E9}")
        let decomposed = LatestVersions.Key(applicationID: 1, attributesType: "Cafe\u{301}")
        latest.remember(4, for: composed, readAt: latest.generation(composed))
        #expect(latest.version(decomposed) == nil)
        #expect(latest.version(composed) == 4)
    }

    @Test func aReadThatRacedAnInvalidationIsNotRemembered() {
        let latest = LatestVersions(enabled: true)
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Raced")
        let before = latest.generation(key)
        latest.invalidate(key)  // a publish lands while the database read is under way
        latest.remember(1, for: key, readAt: before)
        #expect(latest.version(key) == nil)
        latest.remember(2, for: key, readAt: latest.generation(key))
        #expect(latest.version(key) == 2)
    }

    @Test func aMalformedNotificationFlushesEverything() {
        let caches = Self.caches()
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Any")
        caches.latest.remember(1, for: key, readAt: caches.latest.generation(key))
        caches.apply(notification: "schema_published|garbage")
        #expect(caches.latest.version(key) == nil)
    }

    @Test func disabledWhenResponsesAreNotCached() {
        let caches = Caches(CacheSettings(responseBytes: 0), clock: { 0 })
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Off")
        caches.latest.remember(1, for: key, readAt: caches.latest.generation(key))
        #expect(caches.latest.version(key) == nil)
    }
}

/// Change-feed wake-ups name only an application: they must not empty the caches, or every
/// publish anywhere would flush every replica. They go to the waiting room alone
/// (`RegistryAPI.applyChange`), so this goes through the same entry point as the listener.
@Suite struct FeedNotificationTests {
    @Test func aFeedNotificationKeepsTheCaches() {
        let api = RegistryAPI(store: nil, caching: CacheSettings(responseBytes: 1 << 20))
        let key = LatestVersions.Key(applicationID: 1, attributesType: "Kept")
        api.caches.latest.remember(3, for: key, readAt: api.caches.latest.generation(key))
        api.applyChange(notification: "feed|1")
        #expect(api.caches.latest.version(key) == 3)
    }
}
