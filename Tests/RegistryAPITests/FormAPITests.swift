import Registry
import Testing
import TestSupport

/// Forms over HTTP: the form endpoint, the dry run, and compatibility on Create.
@Suite struct FormAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    static let flight = SchemaAPITests.flight

    @Test func formOfTheSpecExampleIsExactlyTheDocumentedDescriptor() throws {
        _ = try tenant.publish("FlightAttributes", Self.flight, version: 2)
        let response = try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/2/form?application=\(tenant.code)")
        #expect(response.status == 200)
        let expected = """
            {"form":{"application":"\(tenant.code)","attributes_type":"FlightAttributes","version":2,\
            "content":{"mode":"fields","fields":[\
            {"name":"gate","path":"content-state.gate","label":"Gate","type":"string","widget":"text","required":false},\
            {"name":"status","path":"content-state.status","label":"Status","type":"string","widget":"text","required":false},\
            {"name":"estimatedTime","path":"content-state.estimatedTime","label":"Estimated time","type":"string","widget":"text","required":false}]},\
            "attributes":{"mode":"fields","fields":[\
            {"name":"flightNumber","path":"attributes.flightNumber","label":"Flight number","type":"string","widget":"text","required":true}]}}}
            """
        #expect(try response.json() == JSONParser.parse(expected))
    }

    @Test func formOfAnUnknownOrDeletedVersionIsNotFound() throws {
        _ = try tenant.publish("Gone", Self.flight)
        _ = try tenant.request("DELETE", "/api/live_activity_schemas/Gone/1?application=\(tenant.code)")
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/Gone/1/form?application=\(tenant.code)"), status: 404, code: 5)
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/Never/1/form?application=\(tenant.code)"), status: 404, code: 5)
    }

    @Test func formWithoutAnAttributesSectionIsAFreeList() throws {
        _ = try tenant.publish("Free", #"{"type":"object","properties":{"score":{"type":"integer"}}}"#)
        let form = try tenant.request("GET", "/api/live_activity_schemas/Free/1/form?application=\(tenant.code)").json()
        #expect(form["form"]?["attributes"] == ["mode": "free", "fields": []])
    }

    @Test func dryRunReturnsTheFormAndWritesNothing() throws {
        let response = try tenant.post(
            ["application": .string(tenant.code), "attributesType": "Dry", "jsonSchema": .string(Self.flight)],
            path: "/api/live_activity_schemas:validate")
        #expect(response.status == 200)
        let form = try #require(try response.json()["form"]?.objectValue)
        #expect(form["version"] == nil)
        #expect(form["attributes_type"] == "Dry")
        #expect(try tenant.list().isEmpty)
    }

    @Test func dryRunGivesTheSame400AsCreate() throws {
        let body: JSONObject = ["application": .string(tenant.code), "attributesType": "Dry", "jsonSchema": #"{"type":"object","properties":[]}"#]
        let dry = try tenant.post(body, path: "/api/live_activity_schemas:validate")
        let create = try tenant.post(body)
        try expectError(dry, status: 400, code: 3, mentioning: "jsonSchema.properties")
        #expect(dry.bodyText == create.bodyText)
    }

    @Test func dryRunIgnoresAnExistingVersion() throws {
        _ = try tenant.publish("Taken", Self.flight, version: 1)
        let response = try tenant.post(
            ["application": .string(tenant.code), "attributesType": "Taken", "jsonSchema": .string(Self.flight), "version": 1],
            path: "/api/live_activity_schemas:validate")
        #expect(response.status == 200)
    }

    @Test func createReportsCompatibilityWithEarlierVersions() throws {
        let first = try tenant.publish("Compat", Self.flight)
        #expect(try first.json()["compatibility"]?["compatible"] == true)
        #expect(try first.json()["compatibility"]?["problems"] == [])
        let withoutGate = #"{"type":"object","properties":{"status":{"type":"string"},"estimatedTime":{"type":"string"}},"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#
        let second = try tenant.publish("Compat", withoutGate)
        #expect(second.status == 200)
        let compatibility = try #require(try second.json()["compatibility"])
        #expect(compatibility["compatible"] == false)
        let problem = try #require(compatibility["problems"]?.arrayValue?.first)
        #expect(problem["version"] == 1)
        #expect(problem["path"] == "content-state.gate")
        #expect(problem["problem"] == "removed")
    }

    @Test func requireCompatibleTurnsProblemsIntoAConflictNamingThem() throws {
        _ = try tenant.publish("Strict", Self.flight)
        let changed = Self.flight.replacingOccurrences(of: #""gate":{"type":"string"}"#, with: #""gate":{"type":"integer"}"#)
        let response = try tenant.post([
            "application": .string(tenant.code), "attributesType": "Strict", "jsonSchema": .string(changed), "requireCompatible": true,
        ])
        try expectError(response, status: 409, code: 6, mentioning: "content-state.gate", details: 1)
        #expect(try tenant.list(query: "&attributesType=Strict").count == 1)
    }

    @Test func payloadThatCannotFitFourKilobytesIsWarned() throws {
        let schema = #"{"type":"object","properties":{"note":{"type":"string","maxLength":2000}}}"#
        let response = try tenant.publish("Huge", schema)
        #expect(response.status == 200)
        #expect(try response.json()["warnings"]?.arrayValue?.isEmpty == false)
        let form = try tenant.request("GET", "/api/live_activity_schemas/Huge/1/form?application=\(tenant.code)").json()
        #expect(form["form"]?["content"]?["max_payload_bytes"]?.integerLexemeValue ?? 0 > 4096)
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
