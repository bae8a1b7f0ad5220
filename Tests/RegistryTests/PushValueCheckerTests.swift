import Registry
import Testing

/// A published-schema fixture, checked by the same rules as Create.
func pushSchema(_ text: String) throws -> SchemaDocument {
    try SchemaRules.validate(text)
}

/// A JSON object fixture written as JSON text, so number lexemes (`3.0`) stay exact.
func pushObject(_ text: String) throws -> JSONObject {
    try #require(try JSONParser.parse(text).objectValue)
}

@Suite struct PushValueCheckerTests {
    let flight: SchemaDocument

    init() throws {
        flight = try pushSchema(
        #"""
        {
          "type": "object",
          "properties": {
            "gate": { "type": "string", "minLength": 1, "maxLength": 4, "pattern": "^[A-Z][0-9]+$" },
            "status": { "enum": ["boarding", "departed", "delayed"] },
            "seats": { "type": "integer", "minimum": 0, "maximum": 400 },
            "delay": { "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 24, "multipleOf": 0.1 },
            "note": { "type": ["string", "null"] },
            "kind": { "const": "flight" },
            "legs": { "type": "array", "minItems": 1, "maxItems": 3, "items": { "$ref": "#/$defs/Leg" } },
            "boardingAt": { "type": "number", "format": "date-time", "x-swift-type": "Date" }
          },
          "required": ["gate"],
          "$defs": {
            "Leg": {
              "type": "object",
              "properties": { "gate": { "type": "string" }, "stops": { "type": "integer" } },
              "required": ["gate"]
            }
          },
          "attributes": {
            "properties": { "flightNumber": { "type": "string" }, "airline": { "type": "string" } },
            "required": ["flightNumber"]
          }
        }
        """#)
    }

    func check(_ content: String, event: LiveActivityEvent = .update, attributes: String? = nil) throws -> PushValueCheck {
        PushValueChecker.check(
            flight, event: event, contentState: try pushObject(content), attributes: try attributes.map(pushObject))
    }

    func paths(_ check: PushValueCheck, _ severity: PushProblem.Severity = .error) -> [String] {
        check.problems.filter { $0.severity == severity }.map(\.path)
    }

    @Test func matchingValuesAreValidWithoutProblems() throws {
        let result = try check(
            #"{"gate":"B12","status":"boarding","seats":120,"delay":0.3,"note":null,"kind":"flight","legs":[{"gate":"A1"}]}"#)
        #expect(result.valid)
        #expect(result.problems.isEmpty)
    }

    @Test func integerAcceptsThreePointZeroButNotThreePointFive() throws {
        #expect(try check(#"{"gate":"B1","seats":3.0}"#).valid)
        let result = try check(#"{"gate":"B1","seats":3.5}"#)
        #expect(result.problems == [.init(path: "content-state.seats", message: "must be integer, not the number 3.5", severity: .error)])
    }

    @Test func wrongJSONTypeIsAnErrorAtTheFieldPath() throws {
        let result = try check(#"{"gate":12}"#)
        #expect(!result.valid)
        #expect(result.problems.map(\.message) == ["must be string, not the number 12"])
        #expect(paths(result) == ["content-state.gate"])
    }

    @Test func nullInANonNullableFieldIsAnError() throws {
        let result = try check(#"{"gate":null}"#)
        #expect(paths(result) == ["content-state.gate"])
        #expect(result.problems.first?.message.contains("must not be null") == true)
        #expect(try check(#"{"gate":"B1","note":null}"#).valid)
    }

    @Test func enumComparesByJSONValueAndRejectsOthers() throws {
        #expect(try check(#"{"gate":"B1","status":"delayed"}"#).valid)
        let result = try check(#"{"gate":"B1","status":"cancelled"}"#)
        #expect(result.problems.map(\.message) == [#"must be one of "boarding", "departed", "delayed""#])
        let numeric = PushValueChecker.check(
            try pushSchema(#"{"type":"object","properties":{"level":{"enum":[1,2]}}}"#), event: .update,
            contentState: try pushObject(#"{"level":1.0}"#), attributes: nil)
        #expect(numeric.valid)
    }

    @Test func constRejectsAnyOtherValue() throws {
        #expect(try check(#"{"gate":"B1","kind":"flight"}"#).valid)
        #expect(try check(#"{"gate":"B1","kind":"train"}"#).problems.map(\.message) == [#"must be "flight""#])
    }

    @Test func stringLengthsCountUnicodeScalars() throws {
        let cook = PushValueChecker.check(
            try pushSchema(#"{"type":"object","properties":{"emoji":{"type":"string","maxLength":3}}}"#), event: .update,
            contentState: ["emoji": "👨‍🍳"], attributes: nil)
        #expect(cook.valid)  // one grapheme, three scalars (man, zero-width joiner, cook)
        let tooLong = PushValueChecker.check(
            try pushSchema(#"{"type":"object","properties":{"emoji":{"type":"string","maxLength":2}}}"#), event: .update,
            contentState: ["emoji": "👨‍🍳"], attributes: nil)
        #expect(tooLong.problems.map(\.message) == ["must be at most 2 characters long, not 3"])
        #expect(try check(#"{"gate":""}"#).problems.map(\.message).contains("must be at least 1 characters long, not 0"))
    }

    @Test func patternIsCheckedWithRegex() throws {
        #expect(try check(#"{"gate":"B12"}"#).valid)
        #expect(try check(#"{"gate":"12B"}"#).problems.map(\.message) == ["must match the pattern ^[A-Z][0-9]+$"])
    }

    @Test func patternMatchesAnywhereLikeJSONSchema() throws {
        let schema = try pushSchema(#"{"type":"object","properties":{"code":{"type":"string","pattern":"[0-9]{3}"}}}"#)
        let result = PushValueChecker.check(schema, event: .update, contentState: ["code": "abc123def"], attributes: nil)
        #expect(result.problems.isEmpty)
    }

    /// A pattern that is not ECMA-262 is refused at publish; a version stored before that rule
    /// cannot have its values checked, and the check says so rather than calling them valid.
    @Test func anUncompilablePatternIsRefusedAtPublishAndUncheckedWhenStored() throws {
        let text = #"{"type":"object","properties":{"code":{"type":"string","pattern":"(["}}}"#
        #expect(throws: RegistryError.self) { try SchemaRules.validate(text) }
        let stored = try SchemaRules.readStored(text)
        let result = PushValueChecker.check(stored, event: .update, contentState: ["code": "x"], attributes: nil)
        #expect(!result.valid)
        #expect(result.problems.map(\.path) == ["content-state"])
        #expect(result.problems.first?.message.hasPrefix("cannot be checked: the schema no longer compiles (jsonSchema.properties.code.pattern: ") == true)
    }

    @Test func numericBoundsAndMultiplesAreChecked() throws {
        #expect(try check(#"{"gate":"B1","seats":400,"delay":23.9}"#).valid)
        #expect(try check(#"{"gate":"B1","seats":401}"#).problems.map(\.message) == ["must be at most 400, not 401"])
        #expect(try check(#"{"gate":"B1","seats":-1}"#).problems.map(\.message) == ["must be at least 0, not -1"])
        #expect(try check(#"{"gate":"B1","delay":0}"#).problems.map(\.message) == ["must be greater than 0, not 0"])
        #expect(try check(#"{"gate":"B1","delay":24}"#).problems.map(\.message) == ["must be less than 24, not 24"])
        #expect(try check(#"{"gate":"B1","delay":0.35}"#).problems.map(\.message) == ["must be a multiple of 0.1, not 0.35"])
    }

    @Test func arrayItemCountsAreChecked() throws {
        #expect(try check(#"{"gate":"B1","legs":[]}"#).problems.map(\.message) == ["must have at least 1 items, not 0"])
        let four = #"{"gate":"B1","legs":[{"gate":"A"},{"gate":"B"},{"gate":"C"},{"gate":"D"}]}"#
        #expect(try check(four).problems.map(\.message) == ["must have at most 3 items, not 4"])
    }

    @Test func nestedObjectsInArraysReportIndexedPaths() throws {
        let result = try check(#"{"gate":"B1","legs":[{"gate":"A"},{"gate":"B"},{"gate":7,"stops":1.5},{"stops":0}]}"#)
        #expect(
            paths(result) == [
                "content-state.legs[2].gate", "content-state.legs[2].stops", "content-state.legs[3].gate",
                "content-state.legs",
            ])
        #expect(result.problems[2].message == "is required")
    }

    @Test func nestedObjectPropertiesAndRequiredAreChecked() throws {
        let schema = try pushSchema(
            #"{"type":"object","properties":{"driver":{"type":"object","properties":{"name":{"type":"string"},"car":{"type":"object","properties":{"plate":{"type":"string"}},"required":["plate"]}},"required":["name"]}}}"#
        )
        let result = PushValueChecker.check(
            schema, event: .update, contentState: try pushObject(#"{"driver":{"car":{"plate":5}}}"#), attributes: nil)
        #expect(paths(result) == ["content-state.driver.name", "content-state.driver.car.plate"])
    }

    /// A reference that leads nowhere is refused at publish; one that only leads back to
    /// itself is a schema JSON Schema allows, and checking a value against it ends.
    @Test func referencesThatLeadNowhereAreRefusedAndCyclesEnd() throws {
        #expect(throws: RegistryError.self) {
            try pushSchema(##"{"type":"object","properties":{"b":{"$ref":"#/$defs/missing"}}}"##)
        }
        let schema = try pushSchema(
            ##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"##
        )
        let result = PushValueChecker.check(schema, event: .update, contentState: ["a": 1], attributes: nil)
        #expect(result.problems.count <= 1)
    }

    @Test func recursiveSchemasFollowTheValue() throws {
        let schema = try pushSchema(
            ##"{"type":"object","properties":{"tree":{"$ref":"#/definitions/Node"}},"definitions":{"Node":{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/definitions/Node"}}}}}}"##
        )
        let value = try pushObject(#"{"tree":{"label":"root","children":[{"label":"a","children":[{"label":3}]}]}}"#)
        let result = PushValueChecker.check(schema, event: .update, contentState: value, attributes: nil)
        #expect(paths(result) == ["content-state.tree.children[0].children[0].label"])
    }

    @Test func unknownKeysAreWarningsBecauseActivityKitIgnoresThem() throws {
        let result = try check(#"{"gate":"B1","terminal":"2","legs":[{"gate":"A","platform":4}]}"#)
        #expect(result.valid)
        #expect(paths(result, .warning) == ["content-state.terminal", "content-state.legs[0].platform"])
        #expect(result.problems.first?.message == "is not declared in the schema; ActivityKit ignores it")
    }

    @Test func dictionaryValuesAreCheckedAgainstAdditionalProperties() throws {
        let schema = try pushSchema(
            #"{"type":"object","properties":{"scores":{"type":"object","additionalProperties":{"type":"integer"}}}}"#)
        let result = PushValueChecker.check(
            schema, event: .update, contentState: try pushObject(#"{"scores":{"home":2,"away":"one"}}"#), attributes: nil)
        #expect(result.problems == [.init(path: "content-state.scores.away", message: "must be integer, not string", severity: .error)])
    }

    /// The root `required` lists the ContentState properties that are not optional: without
    /// one, the app's decoder fails the whole update.
    @Test func missingRootRequiredContentFieldIsAnError() throws {
        let result = try check(#"{"status":"boarding"}"#)
        #expect(!result.valid)
        #expect(
            result.problems == [
                .init(path: "content-state.gate", message: "is required: the app's ContentState cannot decode an update without it", severity: .error)
            ])
    }

    @Test func requiredAttributeMustBePresentAndNonEmptyAtStart() throws {
        #expect(try check(#"{"gate":"B1"}"#, event: .start, attributes: #"{"flightNumber":"LH400"}"#).valid)
        for attributes in [#"{}"#, #"{"flightNumber":""}"#, #"{"flightNumber":null}"#] {
            let result = try check(#"{"gate":"B1"}"#, event: .start, attributes: attributes)
            #expect(!result.valid)
            #expect(result.problems.first == .init(path: "attributes.flightNumber", message: "is required at start and must not be empty", severity: .error))
        }
        let none = try check(#"{"gate":"B1"}"#, event: .start, attributes: nil)
        #expect(paths(none) == ["attributes.flightNumber"])
    }

    @Test func attributeValuesAreTypeCheckedAtStart() throws {
        let result = try check(#"{"gate":"B1"}"#, event: .start, attributes: #"{"flightNumber":"LH400","airline":7,"crew":3}"#)
        #expect(paths(result) == ["attributes.airline"])
        #expect(paths(result, .warning) == ["attributes.crew"])
    }

    @Test func attributesOnUpdateOrEndAreAnError() throws {
        for event in [LiveActivityEvent.update, .end] {
            let result = try check(#"{"gate":"B1"}"#, event: event, attributes: #"{"flightNumber":"LH400"}"#)
            #expect(result.problems == [.init(path: "attributes", message: "attributes are only sent at start; an update or end cannot change them", severity: .error)])
            #expect(result.attributes == nil)
        }
    }

    @Test func attributesWithoutAnAttributesSectionAreAFreeList() throws {
        let schema = try pushSchema(#"{"type":"object","properties":{"gate":{"type":"string"}}}"#)
        let result = PushValueChecker.check(
            schema, event: .start, contentState: ["gate": "B1"], attributes: ["anything": 1, "else": nil])
        #expect(result.problems.isEmpty)
        #expect(result.attributes == ["anything": 1, "else": nil])
    }

    @Test func dateFieldsAcceptNumbersAndConvertRFC3339Text() throws {
        let number = try check(#"{"gate":"B1","boardingAt":809949600.5}"#)
        #expect(number.valid)
        #expect(number.contentState["boardingAt"] == .number("809949600.5"))
        let text = try check(#"{"gate":"B1","boardingAt":"2026-09-01T10:00:00Z"}"#)
        #expect(text.valid)
        #expect(text.contentState["boardingAt"] == .number("809949600"))
        #expect(text.contentState.keys == ["gate", "boardingAt"])
    }

    @Test func dateFieldsRejectOtherText() throws {
        for value in [#""2026-09-01 10:00""#, #""tomorrow""#, "true"] {
            let result = try check(#"{"gate":"B1","boardingAt":\#(value)}"#)
            #expect(paths(result) == ["content-state.boardingAt"])
        }
    }

    @Test func jsonRenderingListsValidityAndProblems() throws {
        let result = try check(#"{"gate":12}"#)
        #expect(
            JSONWriter.string(result.json)
                == #"{"valid":false,"problems":[{"path":"content-state.gate","message":"must be string, not the number 12","severity":"error"}]}"#
        )
    }
}
