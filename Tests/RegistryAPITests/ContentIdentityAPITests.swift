import Registry
import RegistryAPI
import Testing
import TestSupport

/// Lookup by content and publish-if-changed (`ifExists: returnExisting`), over HTTP.
@Suite struct ContentIdentityAPITests {
    static let spaced = """
        {
          "type" : "object",
          "properties" : { "gate" : { "type" : "string" }, "status" : { "type" : "string" },
                           "estimatedTime" : { "type" : "string" } },
          "attributes" : { "properties" : { "flightNumber" : { "type" : "string" } }, "required" : [ "flightNumber" ] }
        }
        """
    static let reordered = #"{"type":"object","properties":{"status":{"type":"string"},"gate":{"type":"string"},"estimatedTime":{"type":"string"}},"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#

    private static func body(_ tenant: Tenant, _ type: String, _ schema: String, _ extra: JSONObject = [:]) -> JSONObject {
        var body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema)]
        for member in extra.members { body[member.key] = member.value }
        return body
    }

    private static func lookup(_ tenant: Tenant, _ type: String, _ schema: String) throws -> RawHTTPResponse {
        try tenant.post(body(tenant, type, schema), path: "/api/live_activity_schemas:lookup")
    }

    @Test func lookupIgnoresWhitespaceButNotKeyOrder() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        #expect(try tenant.publish("Looked", SchemaAPITests.flight).status == 200)
        let found = try Self.lookup(tenant, "Looked", Self.spaced)
        #expect(found.status == 200)
        #expect(try found.json()["schema"]?["version"] == .number("1"))
        #expect(try found.json()["schema"]?["json_schema"] == .string(SchemaAPITests.flight), "the stored text, byte for byte")
        let missed = try Self.lookup(tenant, "Looked", Self.reordered)
        #expect(missed.status == 404)
        #expect(try missed.json()["code"] == .number("5"))
        #expect(try Self.lookup(tenant, "Other", SchemaAPITests.flight).status == 404)
    }

    @Test func lookupFindsTheNewestIdenticalLiveVersion() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("Newest", SchemaAPITests.flight)
        _ = try tenant.publish("Newest", Self.reordered)
        _ = try tenant.publish("Newest", Self.spaced)
        #expect(try Self.lookup(tenant, "Newest", SchemaAPITests.flight).json()["schema"]?["version"] == .number("3"))
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Newest/3?application=\(tenant.code)").status == 200)
        #expect(try Self.lookup(tenant, "Newest", SchemaAPITests.flight).json()["schema"]?["version"] == .number("1"))
    }

    @Test func returnExistingAnswersTheNewestVersionWhenIdenticalAndWritesNothing() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for spelling in ["ifExists", "if_exists"] {
            let type = "Found_\(spelling)"
            let first = try tenant.post(Self.body(tenant, type, SchemaAPITests.flight, [spelling: "returnExisting"]))
            #expect(first.status == 200)
            #expect(try first.json()["existing"] == .bool(false))
            #expect(try first.json()["schema"]?["version"] == .number("1"))
            let again = try tenant.post(Self.body(tenant, type, Self.spaced, [spelling: "returnExisting"]))
            #expect(again.status == 200)
            #expect(try again.json()["existing"] == .bool(true))
            #expect(try again.json()["schema"]?["version"] == .number("1"))
            #expect(try again.json()["schema"]?["json_schema"] == .string(SchemaAPITests.flight))
            #expect(try tenant.list(query: "&attributesType=\(type)").count == 1)
            let changed = try tenant.post(Self.body(tenant, type, Self.reordered, [spelling: "returnExisting"]))
            #expect(try changed.json()["existing"] == .bool(false))
            #expect(try changed.json()["schema"]?["version"] == .number("2"))
        }
    }

    /// `ifExists` publishes go through the ordinary publish: one audit event for a version
    /// published, none for one found, and a rejecting policy refuses them the same way.
    @Test func returnExistingIsAuditedAndHonoursARejectingPolicyLikeAnyPublish() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let type = "Governed"
        let publishEvents = {
            try tenant.request("GET", "/api/audit_events?application=\(tenant.code)&action=publish").json()["audit_events"]?.arrayValue ?? []
        }
        let first = try tenant.post(Self.body(tenant, type, SchemaAPITests.flight, ["ifExists": "returnExisting"]))
        #expect(first.status == 200, "\(first.bodyText)")
        #expect(try first.json()["existing"] == .bool(false))
        var events = try publishEvents()
        #expect(events.count == 1)
        #expect(events.first?["attributes_type"] == .string(type) && events.first?["version"] == .number("1"))
        #expect(events.first?["details"]?["compatibility"]?["compatible"] == true, "the review is in the event")

        #expect(try tenant.post(Self.body(tenant, type, Self.spaced, ["ifExists": "returnExisting"])).json()["existing"] == true)
        #expect(try publishEvents().count == 1, "finding the version writes no event")

        let policy = try tenant.request(
            "PUT", "/api/live_activity_types/\(type)/compatibility_policy?application=\(tenant.code)",
            body: #"{"mode":"backward","enforce":"reject"}"#)
        try #require(policy.status == 200, "\(policy.bodyText)")
        let refused = try tenant.post(Self.body(tenant, type, PublishCompatibilityAPITests.withoutGate, ["ifExists": "returnExisting"]))
        try expectError(refused, status: 409, code: 6, mentioning: "(backward, reject)", details: 1)
        events = try publishEvents()
        #expect(events.count == 1, "a refused publish writes no event")
        #expect(try tenant.list(query: "&attributesType=\(type)").count == 1)
    }

    @Test func returnExistingComparesWithTheNewestVersionOnly() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("Back", SchemaAPITests.flight)
        _ = try tenant.publish("Back", Self.reordered)
        let back = try tenant.post(Self.body(tenant, "Back", SchemaAPITests.flight, ["ifExists": "returnExisting"]))
        #expect(try back.json()["existing"] == .bool(false))
        #expect(try back.json()["schema"]?["version"] == .number("3"), "going back to version 1's content is a change")
    }

    @Test func returnExistingAfterTheNewestWasDeletedPublishesTheNextNumber() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("Gone", SchemaAPITests.flight)
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Gone/1?application=\(tenant.code)").status == 200)
        let again = try tenant.post(Self.body(tenant, "Gone", SchemaAPITests.flight, ["ifExists": "returnExisting"]))
        #expect(try again.json()["existing"] == .bool(false))
        #expect(try again.json()["schema"]?["version"] == .number("2"), "a deleted number is never reused")
    }

    @Test func anUnknownIfExistsValueIsRefusedNamingTheField() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for value: JSONValue in ["fail", .bool(true), .number("1")] {
            let response = try tenant.post(Self.body(tenant, "Refused", SchemaAPITests.flight, ["ifExists": value]))
            #expect(response.status == 400)
            #expect(try response.json()["message"]?.stringValue?.hasPrefix("ifExists") == true)
        }
        #expect(try tenant.list().isEmpty)
    }

    @Test func returnExistingWithAnIdempotencyKeyReplaysItsFirstAnswer() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let body = JSONWriter.string(.object(Self.body(tenant, "Keyed", SchemaAPITests.flight, ["ifExists": "returnExisting"])))
        let first = try tenant.request("POST", "/api/live_activity_schemas", body: body, headers: [("Idempotency-Key", "ci-run-1")])
        let retry = try tenant.request("POST", "/api/live_activity_schemas", body: body, headers: [("Idempotency-Key", "ci-run-1")])
        #expect(first.status == 200)
        #expect(retry.status == 200)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.body == first.body)
        #expect(try tenant.list().count == 1)
    }

    @Test func concurrentIdenticalFindOrCreatesOnTwoReplicasCreateOneVersion() throws {
        let database = try TestPostgres.shared.makeDatabase()
        let a = try TestRegistry(databaseURL: database)
        let b = try TestRegistry(databaseURL: database)
        defer { a.stop(); b.stop() }
        let onA = try a.makeTenant()
        let tenants = [onA, onA.on(b)]
        // A type that does not exist yet (no counter row to lock) and one that does.
        _ = try onA.publish("Existing", Self.reordered)
        for type in ["Fresh", "Existing"] {
            let results = onThreads(16) { index in
                try tenants[index % 2].post(Self.body(onA, type, SchemaAPITests.flight, ["ifExists": "returnExisting"]))
            }
            var versions: Set<String> = []
            var created = 0
            for result in results {
                let response = try result.get()
                #expect(response.status == 200, "\(response.bodyText)")
                if let version = try response.json()["schema"]?["version"] { versions.insert(JSONWriter.string(version)) }
                if try response.json()["existing"] == .bool(false) { created += 1 }
            }
            #expect(versions.count == 1, "\(type): several versions created: \(versions)")
            #expect(created == 1, "\(type): \(created) requests said they published")
        }
        #expect(try onA.list(query: "&attributesType=Fresh").count == 1)
        #expect(try onA.list(query: "&attributesType=Existing").count == 2)
    }
}
