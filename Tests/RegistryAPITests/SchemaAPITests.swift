import Foundation
import Registry
import Testing
import TestSupport

/// Every rule of the schema API (list, create, get, delete), spoken over HTTP to a real server
/// on a real PostgreSQL.
@Suite struct SchemaAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    static let flight = #"{"type":"object","properties":{"gate":{"type":"string"},"status":{"type":"string"},"estimatedTime":{"type":"string"}},"attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}"#

    // MARK: authentication and check order

    @Test func missingAuthorizationIsUnauthenticated() throws {
        let response = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)", token: nil)
        try expectError(response, status: 401, code: 16)
    }

    @Test func unknownOrMalformedTokensAreUnauthenticated() throws {
        for header in ["Api lar_unknown", "Bearer \(tenant.token)", "Api", "Api a b", tenant.token] {
            let response = try tenant.request(
                "GET", "/api/live_activity_schemas?application=\(tenant.code)", token: nil,
                headers: [("Authorization", header)])
            try expectError(response, status: 401, code: 16)
        }
    }

    @Test func schemeWordIsCaseInsensitive() throws {
        for scheme in ["api", "API", "aPi"] {
            let response = try tenant.request(
                "GET", "/api/live_activity_schemas?application=\(tenant.code)", token: nil,
                headers: [("Authorization", "\(scheme) \(tenant.token)")])
            #expect(response.status == 200)
        }
    }

    @Test func revokedTokenIsUnauthenticatedAtOnce() throws {
        let registry = try TestRegistry.shared()
        let other = try registry.makeTenant()
        #expect(try other.request("GET", "/api/live_activity_schemas?application=\(other.code)").status == 200)
        try registry.revoke(other)
        try expectError(try other.request("GET", "/api/live_activity_schemas?application=\(other.code)"), status: 401, code: 16)
    }

    @Test func unknownPathIsNotFoundBeforeAuthentication() throws {
        for path in ["/api/nothing", "/api/live_activity_schemas/", "/api/live_activity_schemas/T/1/extra", "/", "/api/live_activity_schemas/T/1:frobnicate"] {
            try expectError(try tenant.request("GET", path, token: nil), status: 404, code: 5)
        }
    }

    @Test func wrongMethodIsNotAllowedWithAllowHeaderBeforeAuthentication() throws {
        let response = try tenant.request("PUT", "/api/live_activity_schemas/T/1", token: nil)
        try expectError(response, status: 405, code: 12)
        #expect(response.header("Allow")?.contains("GET") == true)
        #expect(response.header("Allow")?.contains("DELETE") == true)
        try expectError(try tenant.request("DELETE", "/api/live_activity_schemas", token: nil), status: 405, code: 12)
    }

    @Test func unauthenticatedCallerLearnsNothingElse() throws {
        let response = try tenant.request("POST", "/api/live_activity_schemas", body: "not json", token: nil)
        try expectError(response, status: 401, code: 16)
    }

    @Test func malformedRequestComesBeforeUnknownApplication() throws {
        let response = try tenant.post(["application": "NOPE0-NOPE0", "attributesType": "T"])
        try expectError(response, status: 400, code: 3, mentioning: "jsonSchema")
    }

    @Test func unknownApplicationIsNotFoundBeforeSchemaRules() throws {
        let response = try tenant.post(["application": "NOPE0-NOPE0", "attributesType": "T", "jsonSchema": "{}"])
        try expectError(response, status: 404, code: 5, mentioning: "NOPE0-NOPE0")
    }

    @Test func foreignApplicationIsPermissionDeniedBeforeSchemaRules() throws {
        let other = try TestRegistry.shared().makeTenant()
        let response = try tenant.post(["application": .string(other.code), "attributesType": "T", "jsonSchema": "{}"])
        try expectError(response, status: 403, code: 7)
        try expectError(try tenant.request("GET", "/api/live_activity_schemas?application=\(other.code)"), status: 403, code: 7)
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/T/1?application=\(other.code)"), status: 403, code: 7)
        try expectError(try tenant.request("DELETE", "/api/live_activity_schemas/T/1?application=\(other.code)"), status: 403, code: 7)
    }

    @Test func schemaRulesComeBeforeTheVersionConflict() throws {
        #expect(try tenant.publish("Order", Self.flight, version: 1).status == 200)
        let response = try tenant.publish("Order", #"{"type":"array"}"#, version: 1)
        try expectError(response, status: 400, code: 3, mentioning: "jsonSchema.type")
    }

    // MARK: create

    @Test func omittedVersionPublishesTheNextFree() throws {
        for expected in 1...3 {
            let response = try tenant.publish("FlightAttributes", Self.flight)
            #expect(response.status == 200)
            #expect(try response.json()["schema"]?["version"] == .number(String(expected)))
        }
    }

    @Test func publishingTheSameVersionTwiceIsAlreadyExists() throws {
        #expect(try tenant.publish("FlightAttributes", Self.flight, version: 4).status == 200)
        try expectError(try tenant.publish("FlightAttributes", Self.flight, version: 4), status: 409, code: 6)
    }

    @Test func versionNumbersAreNeverReused() throws {
        _ = try tenant.publish("Reuse", Self.flight)
        _ = try tenant.publish("Reuse", Self.flight)
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Reuse/2?application=\(tenant.code)").status == 200)
        try expectError(try tenant.publish("Reuse", Self.flight, version: 2), status: 409, code: 6)
        #expect(try tenant.publish("Reuse", Self.flight).json()["schema"]?["version"] == 3)
    }

    @Test func gapsAreAllowedAndNextFreeFollowsTheHighest() throws {
        #expect(try tenant.publish("Gaps", Self.flight, version: 5).status == 200)
        #expect(try tenant.publish("Gaps", Self.flight).json()["schema"]?["version"] == 6)
        #expect(try tenant.publish("Gaps", Self.flight, version: 3).status == 200)
    }

    @Test func versionMayBeANumericString() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "attributesType": "Stringy", "jsonSchema": .string(Self.flight), "version": "7",
        ])
        #expect(try response.json()["schema"]?["version"] == 7)
    }

    @Test(arguments: [JSONValue.number("0"), .number("-1"), .number("2147483648"), .number("1.5"), .string("abc"), .bool(true)])
    func invalidExplicitVersionsAreInvalidArgument(version: JSONValue) throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "attributesType": "T", "jsonSchema": .string(Self.flight), "version": version,
        ])
        try expectError(response, status: 400, code: 3, mentioning: "version")
    }

    @Test func noFreeVersionAboveTheCeilingIsInvalidArgument() throws {
        #expect(try tenant.publish("Ceiling", Self.flight, version: 2_147_483_647).status == 200)
        try expectError(try tenant.publish("Ceiling", Self.flight), status: 400, code: 3, mentioning: "no version is free")
    }

    @Test func bothFieldSpellingsAreAcceptedInBodies() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "attributes_type": "Snake", "json_schema": .string(Self.flight),
        ])
        #expect(response.status == 200)
        #expect(try response.json()["schema"]?["attributes_type"] == "Snake")
    }

    @Test func givingBothSpellingsOfOneFieldIsInvalidArgument() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "attributesType": "A", "attributes_type": "A", "jsonSchema": .string(Self.flight),
        ])
        try expectError(response, status: 400, code: 3, mentioning: "attributes_type")
    }

    @Test func unknownBodyFieldsAreIgnored() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "attributesType": "Extra", "jsonSchema": .string(Self.flight), "colour": "red",
        ])
        #expect(response.status == 200)
    }

    @Test func jsonSchemaGivenAsAnObjectSaysItMustBeAString() throws {
        let response = try tenant.post([
            "application": .string(tenant.code), "attributesType": "T", "jsonSchema": ["type": "object"],
        ])
        try expectError(response, status: 400, code: 3, mentioning: "must be a string")
    }

    @Test(arguments: [JSONValue.null, .number("1"), .string("")])
    func jsonSchemaNullNumberOrEmptyIsInvalidArgument(schema: JSONValue) throws {
        let response = try tenant.post(["application": .string(tenant.code), "attributesType": "T", "jsonSchema": schema])
        try expectError(response, status: 400, code: 3, mentioning: "jsonSchema")
    }

    @Test func missingRequiredFieldsAreInvalidArgumentNamingTheField() throws {
        try expectError(try tenant.post(["attributesType": "T", "jsonSchema": "{}"]), status: 400, code: 3, mentioning: "application")
        try expectError(
            try tenant.post(["application": .string(tenant.code), "jsonSchema": "{}"]), status: 400, code: 3, mentioning: "attributesType")
        try expectError(
            try tenant.post(["application": .string(tenant.code), "attributesType": "", "jsonSchema": "{}"]), status: 400, code: 3,
            mentioning: "attributesType")
    }

    @Test(arguments: ["not json", "[]", "\"text\"", "{\"a\":", ""])
    func bodyThatIsNotAJSONObjectIsInvalidArgument(body: String) throws {
        try expectError(try tenant.request("POST", "/api/live_activity_schemas", body: body), status: 400, code: 3)
    }

    @Test func schemaOf65536BytesIsAcceptedAnd65537Rejected() throws {
        let base = #"{"type":"object","description":""}"#
        let exact = #"{"type":"object","description":""# + String(repeating: "x", count: 65_536 - base.utf8.count) + #""}"#
        #expect(try tenant.publish("Big", exact).status == 200)
        let over = #"{"type":"object","description":""# + String(repeating: "x", count: 65_537 - base.utf8.count) + #""}"#
        try expectError(try tenant.publish("Big", over), status: 400, code: 3, mentioning: "65537")
    }

    @Test func schemaShapeErrorsNameThePath() throws {
        let schema = #"{"type":"object","attributes":{"properties":{"a":{}},"required":["a","b"]}}"#
        try expectError(try tenant.publish("Shape", schema), status: 400, code: 3, mentioning: "jsonSchema.attributes.required[1]")
    }

    @Test func attributesTypeRulesAreEnforced() throws {
        for name in [String(repeating: "a", count: 257), "a/b", "a\u{7}b"] {
            try expectError(try tenant.publish(name, Self.flight), status: 400, code: 3, mentioning: "attributesType")
        }
        #expect(try tenant.publish(String(repeating: "ü", count: 256), Self.flight).status == 200)
    }

    @Test func bodyOverOneMebibyteIsResourceExhausted() throws {
        let body = "{\"pad\":\"" + String(repeating: "x", count: 1_048_577) + "\"}"
        try expectError(try tenant.request("POST", "/api/live_activity_schemas", body: body), status: 413, code: 8)
    }

    // MARK: responses

    @Test func responsesUseSnakeCaseAndUpdatedEqualsCreated() throws {
        let response = try tenant.publish("Names", Self.flight)
        let schema = try #require(try response.json()["schema"]?.objectValue)
        #expect(schema.keys.sorted() == ["application", "attributes_type", "created", "created_by", "json_schema", "state", "updated", "version"])
        #expect(schema["state"] == "active")
        #expect(schema["updated"] == schema["created"])
        let created = try #require(schema["created"]?.stringValue)
        #expect(created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/) != nil)
    }

    @Test func jsonSchemaIsStoredAndReturnedByteForByte() throws {
        let text = "{ \"type\" :\"object\",\n\t\"description\": \"ফ্লাইট ✈︎ \\u00e9 \\\"q\\\"\" ,\"properties\":{}}  "
        let published = try tenant.publish("Verbatim", text)
        #expect(try published.json()["schema"]?["json_schema"] == .string(text))
        let fetched = try tenant.request("GET", "/api/live_activity_schemas/Verbatim/1?application=\(tenant.code)")
        #expect(try fetched.json()["schema"]?["json_schema"] == .string(text))
    }

    @Test func errorBodiesHaveTheGatewayShape() throws {
        let response = try tenant.request("GET", "/api/live_activity_schemas/T/1?application=\(tenant.code)")
        #expect(response.header("Content-Type") == "application/json")
        let body = try #require(try response.json().objectValue)
        #expect(body.keys == ["code", "message", "details"])
        #expect(body["details"] == [])
    }

    // MARK: get and delete

    @Test func getReturnsOneVersionAndUnknownIsNotFound() throws {
        _ = try tenant.publish("Get", Self.flight)
        let response = try tenant.request("GET", "/api/live_activity_schemas/Get/1?application=\(tenant.code)")
        #expect(try response.json()["schema"]?["attributes_type"] == "Get")
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/Get/2?application=\(tenant.code)"), status: 404, code: 5)
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/Nope/1?application=\(tenant.code)"), status: 404, code: 5)
    }

    @Test func pathNamesArePercentDecoded() throws {
        _ = try tenant.publish("Flight Attributes é:1", Self.flight)
        let response = try tenant.request("GET", "/api/live_activity_schemas/Flight%20Attributes%20%C3%A9:1/1?application=\(tenant.code)")
        #expect(response.status == 200)
    }

    @Test(arguments: ["A%2FB", "A%zz", "A%C0%AF", "A%00", "A%ED%A0%80"])
    func invalidPathNamesAreInvalidArgument(segment: String) throws {
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/\(segment)/1?application=\(tenant.code)"), status: 400, code: 3)
    }

    @Test(arguments: ["abc", "0", "-1", "2147483648", "1.0"])
    func invalidPathVersionsAreInvalidArgument(version: String) throws {
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/T/\(version)?application=\(tenant.code)"), status: 400, code: 3)
    }

    @Test func missingApplicationQueryIsInvalidArgument() throws {
        try expectError(try tenant.request("GET", "/api/live_activity_schemas/T/1"), status: 400, code: 3, mentioning: "application")
        try expectError(try tenant.request("GET", "/api/live_activity_schemas"), status: 400, code: 3, mentioning: "application")
    }

    @Test func deleteReturnsTheUsageSummaryAndIsPermanent() throws {
        _ = try tenant.publish("Gone", Self.flight)
        let path = "/api/live_activity_schemas/Gone/1?application=\(tenant.code)"
        let deleted = try tenant.request("DELETE", path)
        #expect(deleted.status == 200)
        let answer = try deleted.json()
        #expect(answer["usage"] == ["total_reads": 0, "readers": 0, "last_read": .null])
        #expect(answer["propagation"]?["complete"] == true && answer.objectValue?.count == 2, "\(answer)")
        try expectError(try tenant.request("GET", path), status: 404, code: 5)
        try expectError(try tenant.request("DELETE", path), status: 404, code: 5)
        #expect(try tenant.list().count == 0)
    }

    // MARK: list

    @Test func listIsEmptyForANewApplication() throws {
        let response = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)")
        #expect(try response.json() == ["schemas": []])
    }

    @Test func listOrdersTypesByBytesAndVersionsNewestFirst() throws {
        for type in ["b", "B", "é", "a"] { _ = try tenant.publish(type, Self.flight); _ = try tenant.publish(type, Self.flight) }
        let order = try tenant.list().map { "\($0["attributes_type"]!.stringValue!)\($0["version"]!.integerLexemeValue!)" }
        #expect(order == ["B2", "B1", "a2", "a1", "b2", "b1", "é2", "é1"])
    }

    @Test func listNarrowsToOneTypeUnderEitherSpelling() throws {
        _ = try tenant.publish("One", Self.flight)
        _ = try tenant.publish("Two", Self.flight)
        #expect(try tenant.list(query: "&attributesType=Two").map { $0["attributes_type"] } == ["Two"])
        #expect(try tenant.list(query: "&attributes_type=One").map { $0["attributes_type"] } == ["One"])
        try expectError(
            try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)&attributesType=One&attributes_type=One"),
            status: 400, code: 3)
    }

    @Test func listPagesWithTokensUntilTheEnd() throws {
        for _ in 1...5 { _ = try tenant.publish("Paged", Self.flight) }
        var versions: [JSONValue] = []
        var token: String?
        var pages = 0
        repeat {
            let query = "&page_size=2" + (token.map { "&pageToken=\($0)" } ?? "")
            let body = try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)\(query)").json()
            versions += body["schemas"]!.arrayValue!.map { $0["version"]! }
            token = body["next_page_token"]?.stringValue
            pages += 1
        } while token != nil
        #expect(versions == [5, 4, 3, 2, 1])
        #expect(pages == 3)
        #expect(try tenant.list(query: "&pageSize=0").count == 5)
    }

    @Test(arguments: ["&pageSize=1001", "&pageSize=-1", "&pageSize=abc", "&pageToken=bogus", "&pageToken=djE6MTp4Lw"])
    func invalidPagingIsInvalidArgument(query: String) throws {
        try expectError(try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)\(query)"), status: 400, code: 3)
    }
}
