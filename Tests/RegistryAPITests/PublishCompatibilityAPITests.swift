import Registry
import Testing
import TestSupport

/// Compatibility on Create, now read by the publish statement itself: each distinct earlier live
/// text once, identical texts skipped, and `requireCompatible` writing nothing when it refuses.
@Suite struct PublishCompatibilityAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    static let flight = SchemaAPITests.flight
    static let withoutGate = #"{"type":"object","properties":{"status":{"type":"string"},"estimatedTime":{"type":"string"}},"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#
    static let withoutStatus = #"{"type":"object","properties":{"gate":{"type":"string"},"estimatedTime":{"type":"string"}},"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#

    func body(_ type: String, _ schema: String, requireCompatible: Bool = false) -> JSONObject {
        var body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema)]
        if requireCompatible { body["requireCompatible"] = true }
        return body
    }

    func problems(_ response: RawHTTPResponse) throws -> [String] {
        try #require(try response.json()["compatibility"]?["problems"]?.arrayValue).map { problem in
            "\(problem["path"]?.stringValue ?? "?") \(problem["problem"]?.stringValue ?? "?") v\(problem["version"]?.integerLexemeValue ?? 0)"
        }
    }

    @Test func eachDistinctEarlierTextIsComparedOnceAtItsOldestVersion() throws {
        for schema in [Self.flight, Self.flight, Self.flight, Self.withoutGate, Self.withoutGate] {
            #expect(try tenant.publish("Many", schema).status == 200)
        }
        let response = try tenant.publish("Many", Self.withoutStatus)
        #expect(response.status == 200)
        #expect(try problems(response) == ["content-state.status removed v1", "content-state.status removed v4"])
    }

    @Test func republishingAnIdenticalTextIsCompatibleWithNoProblems() throws {
        let first = try tenant.publish("Again", Self.flight)
        let again = try tenant.publish("Again", Self.flight)
        #expect(again.status == 200)
        #expect(try first.json()["compatibility"]?["summary"] == "nothing to compare: no earlier live version")
        #expect(try again.json()["compatibility"]?["compatible"] == true)
        #expect(try again.json()["compatibility"]?["problems"] == [])
        #expect(try again.json()["compatibility"]?["compared_versions"] == [1])
        #expect(try again.json().objectValue?.members.map(\.key) == first.json().objectValue?.members.map(\.key))
    }

    @Test func identicalTextsAreSkippedButOthersStillCompared() throws {
        _ = try tenant.publish("Mixed", Self.flight)
        _ = try tenant.publish("Mixed", Self.withoutGate)
        let response = try tenant.publish("Mixed", Self.flight)
        #expect(try problems(response) == [])
        let narrower = try tenant.publish("Mixed", Self.withoutStatus)
        #expect(try problems(narrower) == ["content-state.status removed v1", "content-state.status removed v2"])
    }

    @Test func deletedVersionsAreNotCompared() throws {
        _ = try tenant.publish("Deleted", Self.flight)
        _ = try tenant.publish("Deleted", Self.withoutGate)
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Deleted/1?application=\(tenant.code)").status == 200)
        let response = try tenant.publish("Deleted", Self.withoutStatus)
        #expect(try problems(response) == ["content-state.status removed v2"])
    }

    @Test func dryRunReportsWhatCreateReports() throws {
        for schema in [Self.flight, Self.flight, Self.withoutGate] { _ = try tenant.publish("Dry", schema) }
        for schema in [Self.flight, Self.withoutStatus] {
            let dry = try tenant.post(body("Dry", schema), path: "/api/live_activity_schemas:validate")
            let create = try tenant.post(body("Dry", schema))
            #expect(try dry.json()["compatibility"] == create.json()["compatibility"])
        }
    }

    @Test func refusedRequireCompatibleLeavesTheNextVersionFree() throws {
        _ = try tenant.publish("Refused", Self.flight)
        try expectError(
            try tenant.post(body("Refused", Self.withoutGate, requireCompatible: true)), status: 409, code: 6,
            mentioning: "content-state.gate", details: 1)
        let next = try tenant.post(body("Refused", Self.flight, requireCompatible: true))
        #expect(next.status == 200)
        #expect(try next.json()["schema"]?["version"] == 2)
        #expect(try tenant.list(query: "&attributesType=Refused").count == 2)
    }

    @Test func refusedRequireCompatibleDoesNotKeepItsIdempotencyKey() throws {
        _ = try tenant.publish("KeyRefused", Self.flight)
        let refused = try tenant.request(
            "POST", "/api/live_activity_schemas", body: JSONWriter.string(.object(body("KeyRefused", Self.withoutGate, requireCompatible: true))),
            headers: [("Idempotency-Key", "refused-1")])
        try expectError(refused, status: 409, code: 6, mentioning: "content-state.gate", details: 1)
        let retry = try tenant.request(
            "POST", "/api/live_activity_schemas", body: JSONWriter.string(.object(body("KeyRefused", Self.flight, requireCompatible: true))),
            headers: [("Idempotency-Key", "refused-1")])
        #expect(retry.status == 200)
        #expect(try retry.json()["schema"]?["version"] == 2)
    }

    @Test func idempotentPublishReportsCompatibility() throws {
        _ = try tenant.publish("KeyCompat", Self.flight)
        let response = try tenant.request(
            "POST", "/api/live_activity_schemas", body: JSONWriter.string(.object(body("KeyCompat", Self.withoutGate))),
            headers: [("Idempotency-Key", "compat-1")])
        #expect(response.status == 200)
        #expect(try problems(response) == ["content-state.gate removed v1"])
    }
}
