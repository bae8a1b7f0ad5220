import HTTPServer
import Registry
import RegistryAPI
import Testing
import TestSupport

/// An event loop answers at once what memory can answer (`answerFromMemory`: the answer
/// `decide` gives without work) and leaves the rest to a handler thread: the memory answer must
/// never touch the store, and must be the same answer `handle` gives.
@Suite struct MemoryFirstTests {
    private static func get(_ tenant: Tenant, _ path: String, token: String? = nil) -> HTTPRequest {
        let parts = path.split(separator: "?", maxSplits: 1)
        var query: [(name: String, value: String)] = [("application", tenant.code)]
        if parts.count == 2 {
            query += parts[1].split(separator: "&").map { pair in
                let kv = pair.split(separator: "=", maxSplits: 1)
                return (String(kv[0]), kv.count == 2 ? String(kv[1]) : "")
            }
        }
        return HTTPRequest(
            method: "GET", path: String(parts[0]), query: query, headers: [("Authorization", "Api \(token ?? tenant.token)")])
    }

    @Test func aCachedVersionIsAnsweredFromMemoryAndAnUncachedOneIsLeftToAHandlerThread() throws {
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), caching: CacheSettings(responseBytes: 1 << 20, lookupSeconds: 2))
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        _ = try tenant.publish("Memory", SchemaAPITests.flight)
        let version = Self.get(tenant, "/api/live_activity_schemas/Memory/1")
        let form = Self.get(tenant, "/api/live_activity_schemas/Memory/1/form")
        #expect(registry.api.answerFromMemory(version) == nil, "nothing cached yet: the store is needed")
        let fromStore = registry.api.handle(version)
        let fromMemory = try #require(registry.api.answerFromMemory(version))
        #expect(fromMemory.status == 200)
        #expect(fromMemory.body == fromStore.body)
        #expect(fromMemory.headers.first { $0.name == "ETag" }?.value == fromStore.headers.first { $0.name == "ETag" }?.value)
        #expect(registry.api.answerFromMemory(form) == nil)
        _ = registry.api.handle(form)
        #expect(registry.api.answerFromMemory(form)?.status == 200)
    }

    @Test func aMissTriedOnTheEventLoopAndThenOnAHandlerThreadCountsOnce() throws {
        let clock = TestClock()
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), caching: CacheSettings(responseBytes: 1 << 20, lookupSeconds: 2),
            clock: clock.now)
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        _ = try tenant.publish("Counted", SchemaAPITests.flight)
        let version = Self.get(tenant, "/api/live_activity_schemas/Counted/1")
        _ = registry.api.handle(Self.get(tenant, "/api/live_activity_schemas"))  // fills the lookup caches
        let before = registry.api.cacheStatistics
        #expect(registry.api.answerFromMemory(version) == nil)
        #expect(registry.api.handle(version).status == 200)
        #expect(registry.api.cacheStatistics.misses == before.misses + 1)
        #expect(registry.api.answerFromMemory(version)?.status == 200)
        #expect(registry.api.cacheStatistics.misses == before.misses + 1)
    }

    @Test func requestsThatWriteOrListAreNeverTriedInMemory() throws {
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), caching: CacheSettings(responseBytes: 1 << 20, lookupSeconds: 2),
            clock: TestClock().now)
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        _ = registry.api.handle(Self.get(tenant, "/api/live_activity_schemas"))  // fills the lookup caches
        #expect(registry.api.answerFromMemory(Self.get(tenant, "/api/live_activity_schemas")) == nil)
        var publish = Self.get(tenant, "/api/live_activity_schemas")
        publish.method = "POST"
        publish.body = Array(#"{"application":"\#(tenant.code)","attributesType":"Never","jsonSchema":"{\"type\":\"object\"}"}"#.utf8)
        #expect(registry.api.answerFromMemory(publish) == nil)
        #expect(registry.api.handle(Self.get(tenant, "/api/live_activity_schemas/Never/1")).status == 404, "nothing was written")
    }

    @Test func errorsFoundBeforeTheStoreIsNeededAreAnsweredFromMemory() throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        #expect(registry.api.answerFromMemory(HTTPRequest(method: "GET", path: "/nowhere"))?.status == 404)
        #expect(registry.api.answerFromMemory(HTTPRequest(method: "PUT", path: "/api/live_activity_schemas"))?.status == 405)
        let noToken = HTTPRequest(method: "GET", path: "/api/live_activity_schemas/Memory/1", query: [("application", tenant.code)])
        #expect(registry.api.answerFromMemory(noToken)?.status == 401)
        #expect(registry.api.answerFromMemory(HTTPRequest(method: "GET", path: "/healthz"))?.status == 200)
        #expect(registry.api.answerFromMemory(HTTPRequest(method: "GET", path: "/metrics"))?.status == 200)
    }
}
