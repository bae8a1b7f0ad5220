import HTTPServer
import Registry
import RegistryAPI
import Testing
import TestSupport

/// `…/latest`, `…/latest/form` and `…/latest:check`: the newest live version, on every replica,
/// with a tag that changes whenever `latest` moves.
@Suite struct LatestAPITests {
    private static func latest(_ tenant: Tenant, _ type: String, _ suffix: String = "", etag: String? = nil) throws
        -> RawHTTPResponse
    {
        try tenant.request(
            "GET", "/api/live_activity_schemas/\(type)/latest\(suffix)?application=\(tenant.code)",
            headers: etag.map { [("If-None-Match", $0)] } ?? [])
    }

    private static func version(of response: RawHTTPResponse, _ container: String) throws -> String? {
        try response.json()[container]?.objectValue?["version"].map(JSONWriter.string)
    }

    @Test func latestFollowsPublishesAndDeletesOnAnotherReplicaWithItsTag() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database)
        let b = try TestRegistry(databaseURL: database)
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let onB = onA.on(b)
        #expect(try Self.latest(onB, "Moving").status == 404)
        #expect(try onA.publish("Moving", SchemaAPITests.flight).status == 200)

        let first = try eventually({ try Self.latest(onB, "Moving") }, until: { $0.status == 200 })
        #expect(try Self.version(of: first, "schema") == "1")
        let tag1 = try #require(first.header("ETag"))
        #expect(try Self.latest(onB, "Moving", etag: tag1).status == 304, "a warm latest answers 304 for its tag")
        let form1 = try Self.latest(onB, "Moving", "/form")
        #expect(try Self.version(of: form1, "form") == "1" || form1.json()["version"].map(JSONWriter.string) == "1")
        let formTag1 = try #require(form1.header("ETag"))

        // Identical content: the tag must still change, because latest now names version 2.
        #expect(try onA.publish("Moving", SchemaAPITests.flight).status == 200)
        let second = try eventually({ try Self.latest(onB, "Moving") }, until: { (try? Self.version(of: $0, "schema")) == "2" })
        #expect(try Self.version(of: second, "schema") == "2", "replica B kept serving version 1 as latest")
        let tag2 = try #require(second.header("ETag"))
        #expect(tag2 != tag1)
        #expect(try Self.latest(onB, "Moving", etag: tag1).status == 200)
        #expect(try Self.latest(onB, "Moving", etag: tag2).status == 304)
        let form2 = try eventually({ try Self.latest(onB, "Moving", "/form") }, until: { $0.header("ETag") != formTag1 })
        #expect(form2.header("ETag") != formTag1)

        // Deleting the newest moves latest back, on the other replica too.
        #expect(try onA.request("DELETE", "/api/live_activity_schemas/Moving/2?application=\(onA.code)").status == 200)
        let back = try eventually({ try Self.latest(onB, "Moving") }, until: { (try? Self.version(of: $0, "schema")) == "1" })
        #expect(try Self.version(of: back, "schema") == "1", "replica B kept serving a deleted version as latest")
        #expect(back.header("ETag") == tag1)
        #expect(try Self.latest(onB, "Moving", etag: tag2).status == 200)

        #expect(try onA.request("DELETE", "/api/live_activity_schemas/Moving/1?application=\(onA.code)").status == 200)
        let gone = try eventually({ try Self.latest(onB, "Moving") }, until: { $0.status == 404 })
        #expect(gone.status == 404)
        #expect(try gone.json()["code"] == .number("5"))
    }

    @Test func theReplicaThatPublishesMovesLatestAtOnce() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for expected in 1...3 {
            #expect(try tenant.publish("AtOnce", SchemaAPITests.flight).status == 200)
            #expect(try Self.version(of: Self.latest(tenant, "AtOnce"), "schema") == String(expected))
        }
    }

    @Test func aWarmLatestIsAnsweredFromMemoryLikeTheVersionItNames() throws {
        let registry = try TestRegistry(
            databaseURL: TestPostgres.shared.makeDatabase(), caching: CacheSettings(responseBytes: 1 << 20, lookupSeconds: 2))
        defer { registry.stop() }
        let tenant = try registry.makeTenant()
        _ = try tenant.publish("Warm", SchemaAPITests.flight)
        for path in ["/api/live_activity_schemas/Warm/latest", "/api/live_activity_schemas/Warm/latest/form"] {
            let request = HTTPRequest(
                method: "GET", path: path, query: [("application", tenant.code)], headers: [("Authorization", "Api \(tenant.token)")])
            #expect(registry.api.answerFromMemory(request) == nil, "nothing known yet: the store is needed")
            let fromStore = registry.api.handle(request)
            #expect(fromStore.status == 200)
            // The publish's own change, read from the feed, may still arrive and make latest be read once more.
            let warm = try eventually({ () -> HTTPResponse? in
                if registry.api.answerFromMemory(request) == nil { _ = registry.api.handle(request) }
                return registry.api.answerFromMemory(request)
            }, until: { $0 != nil })
            let fromMemory = try #require(warm)
            #expect(fromMemory.body == fromStore.body)
            #expect(fromMemory.headers.first { $0.name == "ETag" }?.value == fromStore.headers.first { $0.name == "ETag" }?.value)
        }
    }

    @Test func latestCheckUsesTheNewestVersionAndNamesIt() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("Checked", SchemaAPITests.flight)
        _ = try tenant.publish("Checked", #"{"type":"object","properties":{"gate":{"type":"integer"}}}"#)
        let body = #"{"application":"\#(tenant.code)","event":"update","contentState":{"gate":"B12"}}"#
        let response = try tenant.request("POST", "/api/live_activity_schemas/Checked/latest:check", body: body)
        #expect(response.status == 200)
        let json = try response.json()
        #expect(json["version"] == .number("2"))
        #expect(json["valid"] == .bool(false), "version 2 wants an integer gate")
        let pinned = try tenant.request("POST", "/api/live_activity_schemas/Checked/1:check", body: body)
        #expect(try pinned.json()["valid"] == .bool(true))
    }

    @Test func latestOfAnUnknownTypeIsNotFoundAndOtherMethodsAreRefused() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try Self.latest(tenant, "Nobody").status == 404)
        #expect(try Self.latest(tenant, "Nobody", "/form").status == 404)
        let check = try tenant.request(
            "POST", "/api/live_activity_schemas/Nobody/latest:check",
            body: #"{"application":"\#(tenant.code)","event":"update","contentState":{}}"#)
        #expect(check.status == 404)
        #expect(try tenant.request("GET", "/api/live_activity_schemas/Nobody/latest:check?application=\(tenant.code)").status == 405)
        // `latest` is not a version number: it cannot be deleted, and says so with 405.
        let delete = try tenant.request("DELETE", "/api/live_activity_schemas/Nobody/latest?application=\(tenant.code)")
        #expect(delete.status == 405)
        #expect(delete.header("Allow") == "GET")
    }
}
