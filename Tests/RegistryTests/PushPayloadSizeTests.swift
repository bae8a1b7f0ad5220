import Registry
import Testing

@Suite struct PushPayloadSizeTests {
    @Test func aStringCountsSixBytesPerCharacterPlusQuotes() throws {
        let schema = try pushSchema(#"{"type":"object","properties":{"gate":{"type":"string","maxLength":4}}}"#)
        // The worst value really reaches the bound: control characters are written as \u00XX.
        let worst: JSONValue = ["gate": .string(String(repeating: "\u{1}", count: 4))]
        #expect(PayloadSizeEstimator.maxContentStateBytes(of: schema) == JSONWriter.bytes(worst).count)
        #expect(PayloadSizeEstimator.maxContentStateBytes(of: schema) == 35)
    }

    @Test func everyKindOfFieldHasItsBound() throws {
        let schema = try pushSchema(
            #"""
            {"type":"object","properties":{
              "flag":{"type":"boolean"},
              "count":{"type":"integer"},
              "seats":{"type":"integer","minimum":0,"exclusiveMaximum":1000},
              "floor":{"type":"integer","minimum":-50,"maximum":9},
              "ratio":{"type":"number"},
              "at":{"type":"number","x-swift-type":"Date"},
              "status":{"type":"string","enum":["on time","delayed"]},
              "kind":{"const":"flight"},
              "note":{"type":["string","null"],"maxLength":1},
              "legs":{"type":"array","maxItems":2,"items":{"$ref":"#/$defs/Leg"}},
              "none":{"type":"array","maxItems":0}
            },
            "$defs":{"Leg":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}
            """#)
        let worst: JSONValue = [
            "flag": false, "count": .number("-9223372036854775808"), "seats": 999, "floor": -50,
            "ratio": .number("-1.7976931348623157e+308"), "at": .number("-1.7976931348623157e+308"),
            "status": "on time", "kind": "flight", "note": "\u{1}",  // written \u0001, longer than null
            "legs": [["ok": false], ["ok": false]], "none": [],
        ]
        #expect(PayloadSizeEstimator.maxContentStateBytes(of: schema) == JSONWriter.bytes(worst).count)
    }

    @Test func unboundedFieldsHaveNoBound() throws {
        for property in [
            #"{"type":"string"}"#, #"{"type":"array","items":{"type":"integer"}}"#, #"{"type":"array","maxItems":2}"#,
            #"{"type":"object"}"#, #"{"type":"object","properties":{},"additionalProperties":{"type":"integer"}}"#,
            #"{"description":"anything"}"#, #"{"type":"date"}"#,
        ] {
            let schema = try pushSchema(#"{"type":"object","properties":{"x":\#(property)}}"#)
            #expect(PayloadSizeEstimator.maxContentStateBytes(of: schema) == nil, "\(property)")
        }
    }

    @Test func aRecursiveSchemaHasNoBound() throws {
        let schema = try pushSchema(
            ##"{"type":"object","properties":{"tree":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"children":{"type":"array","maxItems":2,"items":{"$ref":"#/$defs/Node"}}}}}}"##
        )
        #expect(PayloadSizeEstimator.maxContentStateBytes(of: schema) == nil)
    }

    @Test func aSharedDefinitionUsedTwiceIsNotACycle() throws {
        let schema = try pushSchema(
            ##"{"type":"object","properties":{"a":{"$ref":"#/$defs/B"},"b":{"$ref":"#/$defs/B"}},"$defs":{"B":{"type":"boolean"}}}"##
        )
        #expect(PayloadSizeEstimator.maxContentStateBytes(of: schema) == JSONWriter.bytes(["a": false, "b": false]).count)
    }

    @Test func attributesAreBoundedOnlyWithAnAttributesSection() throws {
        let free = try pushSchema(#"{"type":"object","properties":{}}"#)
        #expect(PayloadSizeEstimator.maxContentStateBytes(of: free) == 2)
        #expect(PayloadSizeEstimator.maxAttributesBytes(of: free) == nil)
        #expect(PayloadSizeEstimator.worstCaseStartPayloadBytes(of: free, attributesType: "T") == nil)
        let declared = try pushSchema(
            #"{"type":"object","attributes":{"properties":{"flightNumber":{"type":"string","maxLength":6}}}}"#)
        #expect(PayloadSizeEstimator.maxAttributesBytes(of: declared) == JSONWriter.bytes(["flightNumber": .string(String(repeating: "\u{1}", count: 6))]).count)
    }

    @Test func theWorstStartPayloadMatchesAPreviewOfTheWorstValues() throws {
        let schema = try pushSchema(
            #"{"type":"object","properties":{"gate":{"type":"string","maxLength":3},"seats":{"type":"integer","minimum":0,"maximum":400}},"attributes":{"properties":{"flightNumber":{"type":"string","maxLength":6}},"required":["flightNumber"]}}"#
        )
        let alert: JSONObject = ["title": "Flight", "body": "Boarding"]
        let estimate = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: schema, attributesType: "FlightAttributes", alert: alert)
        var notification = try pushObject(
            #"{"title":"Flight","content":"Boarding","live_activity_id":"la","live_activity":{"attributes-type":"FlightAttributes","content-state":{"seats":400},"attributes":{}}}"#
        )
        guard case .object(var activity)? = notification["live_activity"] else { Issue.record("fixture"); return }
        activity["content-state"] = ["gate": .string("\u{1}\u{2}\u{3}"), "seats": 400]
        activity["attributes"] = ["flightNumber": .string(String(repeating: "\u{7f}", count: 6))]
        notification["live_activity"] = .object(activity)
        let preview = LiveActivityPreview.preview(notification, call: .start, bundleID: "b", schema: schema, now: 9_999_999_999)
        #expect(preview.valid)
        #expect(estimate == preview.request?.payloadBytes)
        #expect(PayloadSizeEstimator.worstCaseStartPayloadBytes(of: schema, attributesType: "FlightAttributes")
            == estimate.map { $0 - JSONWriter.bytes(.object(alert)).count - #","alert":"#.utf8.count })
    }
}
