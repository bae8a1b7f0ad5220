import Registry
import Testing
import TestSupport

/// `:check` and `:preview` over HTTP; the rules themselves are unit-tested in
/// RegistryTests/Push*.
@Suite struct PushAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("FlightAttributes", SchemaAPITests.flight)
    }

    @Test func checkReportsAMissingRequiredAttributeAtStart() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "event": "start", "content_state": ["gate": "A1"], "attributes": ["flightNumber": ""],
        ], path: "/api/live_activity_schemas/FlightAttributes/1:check")
        #expect(response.status == 200)
        let body = try response.json()
        #expect(body["valid"] == false)
        #expect(body["problems"]?.arrayValue?.first?["path"] == "attributes.flightNumber")
    }

    @Test func checkAcceptsValidUpdatesUnderEitherSpelling() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "event": "update", "contentState": ["gate": "B2", "status": "boarding"],
        ], path: "/api/live_activity_schemas/FlightAttributes/1:check")
        #expect(try response.json()["valid"] == true)
    }

    @Test func checkNeedsAKnownEventAndAnExistingVersion() throws {
        try expectError(try tenant.post(
            ["application": .string(tenant.code), "event": "pause", "content_state": [:]],
            path: "/api/live_activity_schemas/FlightAttributes/1:check"), status: 400, code: 3, mentioning: "event")
        try expectError(try tenant.post(
            ["application": .string(tenant.code), "event": "update", "content_state": [:]],
            path: "/api/live_activity_schemas/FlightAttributes/9:check"), status: 404, code: 5)
    }

    @Test func previewWithAnInvalidEventReportsTheEventAlone() throws {
        for event: JSONValue in ["pause", 3] {
            let response = try tenant.post([
                "application": .string(tenant.code), "bundle_id": "com.example.flights", "live_activity_id": "act-1",
                "live_activity": ["event": event, "content-state": ["gate": "A1"]],
            ], path: "/api/live_activities:preview")
            #expect(response.status == 200, "\(response.bodyText)")
            let body = try response.json()
            #expect(body["valid"] == false)
            let paths = body["problems"]?.arrayValue?.compactMap { $0["path"]?.stringValue }
            #expect(paths == ["live_activity.event"], "\(event): \(response.bodyText)")
        }
    }

    /// Both push endpoints are documented with the proto spelling; their messages use it.
    @Test func aMissingOrBadFieldIsNamedInTheSpellingTheEndpointDocuments() throws {
        let activity: JSONValue = ["content-state": ["gate": "A1"], "attributes-type": "FlightAttributes", "attributes": [:]]
        let cases: [(body: JSONObject, path: String, named: String)] = [
            (["application": .string(tenant.code), "live_activity": activity], "/api/live_activities:preview", "bundle_id"),
            (["application": .string(tenant.code), "bundleId": "", "live_activity": activity], "/api/live_activities:preview", "bundle_id"),
            (["application": .string(tenant.code), "bundle_id": "b", "schema_version": "abc", "live_activity": activity],
             "/api/live_activities:preview", "schema_version"),
            (["application": .string(tenant.code), "bundle_id": "b", "attributes_type": 3], "/api/live_activities:preview",
             "attributes_type"),
            (["application": .string(tenant.code), "event": "update"], "/api/live_activity_schemas/FlightAttributes/1:check",
             "content_state"),
            (["application": .string(tenant.code), "event": "update", "contentState": 1],
             "/api/live_activity_schemas/FlightAttributes/1:check", "content_state"),
        ]
        for (body, path, named) in cases {
            let response = try tenant.post(body, path: path)
            try expectError(response, status: 400, code: 3, mentioning: named)
            let message = try response.json()["message"]?.stringValue ?? ""
            #expect(message.hasPrefix(named + ":"), "\(message)")
        }
    }

    @Test func previewComposesTheAPNsRequestWithTheNewestSchema() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "bundle_id": "com.example.flights", "title": "Boarding",
            "live_activity_id": "act-1", "apns_priority": 10,
            "live_activity": [
                "content-state": ["gate": "A1", "status": "boarding", "estimatedTime": "10:00"],
                "attributes-type": "FlightAttributes", "attributes": ["flightNumber": "LH 123"],
            ],
        ], path: "/api/live_activities:preview")
        #expect(response.status == 200)
        let body = try response.json()
        #expect(body["valid"] == true)
        let request = try #require(body["request"])
        #expect(request["headers"]?["apns-topic"] == "com.example.flights.push-type.liveactivity")
        #expect(request["headers"]?["apns-priority"] == "10")
        #expect(request["payload"]?["aps"]?["event"] == "start")
        #expect(request["payload"]?["aps"]?["alert"]?["title"] == "Boarding")
        #expect(request["payload_bytes"]?.integerLexemeValue == JSONWriter.bytes(request["payload"]!).count)
    }

    @Test func applicationsListsTheTokensAccountOnly() throws {
        let body = try tenant.request("GET", "/api/applications").json()
        #expect(body["applications"]?.arrayValue?.map { $0["code"] } == [.string(tenant.code)])
    }
}
