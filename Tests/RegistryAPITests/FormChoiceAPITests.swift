import Registry
import Testing
import TestSupport

/// Over HTTP, an enum with associated values is a `choice`, an `allOf` of objects one group and
/// an optional `$ref`'d enum a nullable `select`, and the values the panel builds from them
/// (`{"case": {…}}`, an option, null) are what `:check` accepts.
@Suite struct FormChoiceAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    /// The README's example schema, as printed there: `phase` is `enum Phase { case boarding(gate: String), departed }`.
    static let phase = #"{"type":"object","properties":{"phase":{"oneOf":[{"type":"object","properties":{"boarding":{"type":"object","properties":{"gate":{"type":"string"}},"required":["gate"]}},"required":["boarding"],"additionalProperties":false},{"type":"object","properties":{"departed":{"type":"object"}},"required":["departed"],"additionalProperties":false}]}}}"#

    @Test func theFormOfAnEnumWithAssociatedValuesIsAChoice() throws {
        _ = try tenant.publish("Phased", Self.phase, version: 1)
        let response = try tenant.request("GET", "/api/live_activity_schemas/Phased/1/form?application=\(tenant.code)")
        #expect(response.status == 200)
        let field = try #require(try response.json()["form"]?["content"]?["fields"]?.arrayValue?.first)
        let expected = """
            {"name":"phase","path":"content-state.phase","label":"Phase","type":"object","widget":"choice","required":false,"cases":[\
            {"key":"boarding","label":"Boarding","fields":[{"name":"gate","path":"content-state.phase.boarding.gate","label":"Gate","type":"string","widget":"text","required":true}]},\
            {"key":"departed","label":"Departed","fields":[]}]}
            """
        #expect(field == (try JSONParser.parse(expected)))
    }

    @Test func theDocumentedDryRunAnswersAsPrinted() throws {
        let response = try tenant.post(
            ["application": .string(tenant.code), "attributesType": "FlightAttributes", "jsonSchema": .string(Self.phase)],
            path: "/api/live_activity_schemas:validate")
        #expect(response.status == 200)
        #expect(response.bodyText.contains(#""widget":"choice","required":false,"cases":[{"key":"boarding","label":"Boarding","fields":[{"name":"gate","path":"content-state.phase.boarding.gate","label":"Gate","type":"string","widget":"text","required":true}]},{"key":"departed","label":"Departed","fields":[]}]}"#))
    }

    @Test func theValueAChoiceBuildsIsValid() throws {
        _ = try tenant.publish("Phased", Self.phase, version: 1)
        for (value, valid) in [
            (#"{"boarding":{"gate":"B12"}}"#, true), (#"{"departed":{}}"#, true),
            (#"{"boarding":{}}"#, false), (#"{"boarding":{"gate":"B12"},"departed":{}}"#, false),
        ] {
            let response = try tenant.post(
                ["application": .string(tenant.code), "event": "update", "content_state": ["phase": try JSONParser.parse(value)]],
                path: "/api/live_activity_schemas/Phased/1:check")
            #expect(response.status == 200)
            #expect(try response.json()["valid"] == .bool(valid), "\(value): \(response.bodyText)")
        }
    }

    /// `status: Status?` as `schema-from-swift` writes it.
    @Test func anOptionalReferencedEnumIsANullableSelectAndNullChecksValid() throws {
        let schema = ##"""
            {"type":"object","properties":{"status":{"anyOf":[{"$ref":"#/$defs/Status"},{"type":"null"}]}},
             "$defs":{"Status":{"type":"string","enum":["on_time","delayed"]}}}
            """##
        _ = try tenant.publish("OptionalStatus", schema, version: 1)
        let form = try tenant.request("GET", "/api/live_activity_schemas/OptionalStatus/1/form?application=\(tenant.code)")
        #expect(form.status == 200)
        let field = try #require(try form.json()["form"]?["content"]?["fields"]?.arrayValue?.first)
        #expect(field["widget"] == "select")
        #expect(field["nullable"] == .bool(true))
        #expect(field["options"]?.arrayValue?.compactMap { $0["value"] } == ["on_time", "delayed"])
        for (value, valid) in [("null", true), (#""delayed""#, true), (#""late""#, false)] {
            let response = try tenant.post(
                ["application": .string(tenant.code), "event": "update", "content_state": ["status": try JSONParser.parse(value)]],
                path: "/api/live_activity_schemas/OptionalStatus/1:check")
            #expect(response.status == 200)
            #expect(try response.json()["valid"] == .bool(valid), "\(value): \(response.bodyText)")
        }
    }

    @Test func anAllOfOfObjectsIsOneGroupAndAConflictSaysWhy() throws {
        let schema = ##"""
            {"type":"object","properties":{
              "stop":{"allOf":[{"$ref":"#/$defs/Place"},{"properties":{"at":{"type":"string"}},"required":["at"]}]},
              "bad":{"allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"a":{"type":"integer"}}}]}},
             "$defs":{"Place":{"type":"object","properties":{"city":{"type":"string"}}}}}
            """##
        _ = try tenant.publish("Merged", schema, version: 1)
        let form = try tenant.request("GET", "/api/live_activity_schemas/Merged/1/form?application=\(tenant.code)").json()
        let fields = try #require(form["form"]?["content"]?["fields"]?.arrayValue)
        #expect(fields[0]["widget"] == "group")
        #expect(fields[0]["fields"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["content-state.stop.city", "content-state.stop.at"])
        #expect(fields[0]["fields"]?.arrayValue?.compactMap { $0["required"]?.boolValue } == [false, true])
        #expect(fields[1]["widget"] == "json")
        #expect(fields[1]["fallback_reason"] == #"allOf gives property "a" different schemas in branch 2 and before it"#)
    }
}
