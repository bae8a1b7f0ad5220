import Registry
import Testing
import TestSupport

/// Create and `:validate` warn, without refusing, about a `type` that is not a JSON Schema type
/// name and an `attributesType` that no Swift type can have.
@Suite struct SchemaWarningsAPITests {
    static let typo = #"{"type":"object","properties":{"gate":{"type":"strng"},"seats":{"type":["integer","nul"]}}}"#

    static func warnings(_ response: RawHTTPResponse) throws -> [(path: String, message: String)] {
        try (response.json()["warnings"]?.arrayValue ?? []).map {
            ($0["path"]?.stringValue ?? "", $0["message"]?.stringValue ?? "")
        }
    }

    @Test func validateAndPublishWarnAboutUnknownTypeNames() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let body: JSONObject = ["application": .string(tenant.code), "attributesType": "FlightAttributes", "jsonSchema": .string(Self.typo)]
        for path in ["/api/live_activity_schemas:validate", "/api/live_activity_schemas"] {
            let response = try tenant.post(body, path: path)
            #expect(response.status == 200, "\(path): \(response.bodyText)")
            let warnings = try Self.warnings(response)
            #expect(warnings.map { ExactName($0.path) } == [ExactName("jsonSchema.properties.gate.type"), ExactName("jsonSchema.properties.seats.type[1]")], "\(path)")
            #expect(warnings.first?.message == #""strng" is not a JSON Schema type name; did you mean "string"?"#, "\(path)")
            #expect(warnings.last?.message == #""nul" is not a JSON Schema type name; did you mean "null"?"#, "\(path)")
        }
        // The field still becomes "any JSON value": the warning changes nothing else.
        let form = try tenant.request("GET", "/api/live_activity_schemas/FlightAttributes/1/form?application=\(tenant.code)")
        let gate = try form.json()["form"]?["content"]?["fields"]?.arrayValue?.first { $0["name"] == "gate" }
        #expect(gate?["type"] == "any", "\(form.bodyText)")
    }

    @Test func validateAndPublishWarnWhenTheTypeNameIsNoSwiftTypeName() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for (index, name) in ["Flight Attributes", "1Flight", "Flight-Attributes", "\u{2708}Flight"].enumerated() {
            let body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(name), "jsonSchema": .string(SchemaAPITests.flight)]
            for path in ["/api/live_activity_schemas:validate", "/api/live_activity_schemas"] {
                let response = try tenant.post(body, path: path)
                #expect(response.status == 200, "\(name) \(path): \(response.bodyText)")
                let warnings = try Self.warnings(response)
                #expect(warnings.count == 1, "\(name) \(path): \(warnings)")
                #expect(warnings.first?.path == "attributesType")
                #expect(warnings.first?.message.hasPrefix("\(JSONWriter.string(.string(name))) is not a Swift type name") == true, "\(warnings)")
            }
            #expect(try tenant.request("GET", "/api/live_activity_schemas?application=\(tenant.code)").json()["schemas"]?.arrayValue?.count == index + 1)
        }
        for name in ["FlightAttributes", "Module.FlightAttributes", "\u{1F436}Attributes"] {
            let response = try tenant.post(
                ["application": .string(tenant.code), "attributesType": .string(name), "jsonSchema": .string(SchemaAPITests.flight)],
                path: "/api/live_activity_schemas:validate")
            #expect(response.status == 200)
            #expect(try response.json()["warnings"] == nil, "\(name): \(response.bodyText)")
        }
    }

    /// The README's example, as printed there.
    @Test func theDocumentedExampleAnswersAsPrinted() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let response = try tenant.post(
            [
                "application": .string(tenant.code), "attributesType": "Flight Attributes",
                "jsonSchema": #"{"type":"object","properties":{"gate":{"type":"strng"}}}"#,
            ],
            path: "/api/live_activity_schemas:validate")
        #expect(response.status == 200)
        let warnings = try #require(try response.json()["warnings"])
        #expect(
            JSONWriter.string(warnings)
                == #"[{"path":"attributesType","message":"\"Flight Attributes\" is not a Swift type name (identifiers separated by \".\"): an identifier cannot contain U+0020 \" \""},"#
                + #"{"path":"jsonSchema.properties.gate.type","message":"\"strng\" is not a JSON Schema type name; did you mean \"string\"?"}]"#)
    }
}
