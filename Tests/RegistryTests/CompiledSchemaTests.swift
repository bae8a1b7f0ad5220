@testable import Registry
import Testing

/// A schema fixture written as JSON text, compiled.
func compiledSchema(_ text: String, embedded: [String] = []) throws -> CompiledSchema {
    try CompiledSchema.compile(try JSONParser.parse(text), embeddedSchemas: embedded)
}

/// The failures of `value` (JSON text) against `schema`, with a budget no fixture exhausts.
func validationFailures(_ schema: CompiledSchema, _ value: String, embedded: String? = nil) throws -> [ValidationFailure] {
    var budget = 1_000_000
    let outcome = schema.validate(try JSONParser.parse(value), embedded: embedded, budget: &budget)
    #expect(!outcome.exhausted)
    return outcome.failures
}

/// Where failures point (value path, keyword, schema pointer) and what they say.
@Suite struct CompiledSchemaMessageTests {
    @Test func aLengthFailureNamesTheValuePathTheKeywordAndItsPointer() throws {
        let schema = try compiledSchema(
            ##"{"properties": {"gate": {"type": "string", "minLength": 3, "x-swift-type": "String"}}}"##)
        let failures = try validationFailures(schema, ##"{"gate": "A1"}"##)
        #expect(
            failures == [
                ValidationFailure(
                    instancePath: [.key("gate")], keyword: "minLength", schemaPath: "/properties/gate/minLength",
                    message: "must be at least 3 characters long, not 2", swiftType: "String")
            ])
    }

    @Test func lengthsCountUnicodeScalars() throws {
        let schema = try compiledSchema(##"{"maxLength": 2}"##)
        let failures = try validationFailures(schema, ##""👨‍🍳""##)
        #expect(failures.map(\.message) == ["must be at most 2 characters long, not 3"])
    }

    @Test func aFailureInsideAReferencePointsAtTheDefinition() throws {
        let schema = try compiledSchema(
            ##"{"properties": {"legs": {"items": {"$ref": "#/$defs/Leg"}}}, "$defs": {"Leg": {"required": ["gate"]}}}"##)
        let failures = try validationFailures(schema, ##"{"legs": [{"gate": "A"}, {}]}"##)
        #expect(failures.map(\.instancePath) == [[.key("legs"), .index(1), .key("gate")]])
        #expect(failures.map(\.schemaPath) == ["/$defs/Leg/required"])
        #expect(failures.map(\.message) == ["is required"])
    }

    @Test func typeEnumAndPatternReuseThePushCheckWording() throws {
        let schema = try compiledSchema(
            ##"{"properties": {"a": {"type": "string"}, "b": {"enum": ["x", 1]}, "c": {"pattern": "^[A-Z]+$"}, "d": {"type": "integer"}}}"##)
        let failures = try validationFailures(schema, ##"{"a": null, "b": "y", "c": "abc", "d": 1.5}"##)
        #expect(
            failures.map(\.message) == [
                "must not be null: the schema's type (string) does not include null", ##"must be one of "x", 1"##,
                "must match the pattern ^[A-Z]+$", "must be integer, not the number 1.5",
            ])
    }

    @Test func anyOfSaysHowManySchemasAndShowsTheClosestBranch() throws {
        let schema = try compiledSchema(##"{"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 10}, {"type": "null"}]}"##)
        let failures = try validationFailures(schema, "3")
        #expect(failures.map(\.keyword) == ["anyOf", "minimum"])
        #expect(failures.first?.message == "must match at least one of the 3 schemas in anyOf")
        #expect(failures.last?.schemaPath == "/anyOf/1/minimum")
    }

    @Test func oneOfSaysHowManyMatched() throws {
        let schema = try compiledSchema(##"{"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}, {"type": "string"}]}"##)
        #expect(
            try validationFailures(schema, "2").map(\.message) == [
                "must match exactly one of the 3 schemas in oneOf, but matches 2 (0, 1)"
            ])
        #expect(try validationFailures(schema, "-1.5").first?.message == "must match exactly one of the 3 schemas in oneOf, but matches none")
        #expect(try validationFailures(schema, "\"s\"").isEmpty)
    }

    @Test func forbiddenPropertiesAndItemsSayWhichKeywordForbidsThem() throws {
        let schema = try compiledSchema(
            ##"{"properties": {"a": {}, "list": {"prefixItems": [{}], "items": false}}, "additionalProperties": false}"##)
        let failures = try validationFailures(schema, ##"{"a": 1, "b": 2, "list": [1, 2]}"##)
        #expect(failures.map(\.instancePath) == [[.key("list")], [.key("b")]])
        #expect(
            failures.map(\.message) == [
                "must have at most 1 items, not 2 (items is false)",
                "is not allowed: the schema does not declare this property (additionalProperties is false)",
            ])
    }

    @Test func prefixItemsAreNotCheckedByItems() throws {
        let schema = try compiledSchema(##"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"##)
        #expect(try validationFailures(schema, ##"["x", 2, 3]"##).isEmpty)
        #expect(try validationFailures(schema, ##"["x", 2, "y"]"##).map(\.instancePath) == [[.index(2)]])
    }

    @Test func unevaluatedPropertiesSeeWhatAllOfEvaluated() throws {
        let schema = try compiledSchema(
            ##"{"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}"##)
        #expect(try validationFailures(schema, ##"{"a": 1}"##).isEmpty)
        let failures = try validationFailures(schema, ##"{"a": 1, "b": 2}"##)
        #expect(failures.map(\.instancePath) == [[.key("b")]])
        #expect(failures.map(\.keyword) == ["unevaluatedProperties"])
    }

    @Test func propertyKeysCompareByBytesNotCanonicalEquivalence() throws {
        let schema = try compiledSchema(##"{"properties": {"Caf\u00e9": {}}, "required": ["Caf\u00e9"], "additionalProperties": false}"##)
        let failures = try validationFailures(schema, ##"{"Cafe\u0301": 1}"##)
        #expect(failures.map(\.keyword) == ["required", "additionalProperties"])
    }

    @Test func dependentRequiredNamesTheTrigger() throws {
        let schema = try compiledSchema(##"{"dependentRequired": {"card": ["billing"]}}"##)
        let failures = try validationFailures(schema, ##"{"card": 1}"##)
        #expect(failures.map(\.instancePath) == [[.key("billing")]])
        #expect(failures.map(\.message) == [##"is required when "card" is present"##])
    }

    @Test func containsCountsMatches() throws {
        let schema = try compiledSchema(##"{"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}"##)
        #expect(try validationFailures(schema, ##"[1, "a"]"##).map(\.message) == ["must contain at least 2 items that match the contains schema, not 1"])
        #expect(try validationFailures(schema, "[1, 2, 3, 4]").map(\.message) == ["must contain at most 3 items that match the contains schema, not 4"])
    }

    @Test func uniqueItemsNamesTheEqualItems() throws {
        let schema = try compiledSchema(##"{"uniqueItems": true}"##)
        #expect(try validationFailures(schema, ##"[1, {"a": 1, "b": 2}, {"b": 2, "a": 1.0}]"##).map(\.message) == ["must not contain duplicate items: items 1 and 2 are equal"])
    }

    @Test func anUnknownFormatIsIgnored() throws {
        let schema = try compiledSchema(##"{"format": "x-registry-unknown"}"##)
        var budget = 1_000
        let outcome = schema.validate(.string("anything"), options: .init(assertFormats: true), budget: &budget)
        #expect(outcome.failures.isEmpty && outcome.formatMismatches.isEmpty)
    }

    @Test func anEmbeddedSchemaResolvesReferencesAgainstTheRoot() throws {
        let schema = try compiledSchema(
            ##"{"properties": {"a": {"type": "string"}}, "attributes": {"properties": {"b": {"$ref": "#/$defs/Code"}}}, "$defs": {"Code": {"maxLength": 2}}}"##,
            embedded: ["attributes"])
        #expect(try validationFailures(schema, ##"{"b": "ABC"}"##, embedded: "attributes").map(\.schemaPath) == ["/$defs/Code/maxLength"])
        #expect(try validationFailures(schema, ##"{"b": "ABC"}"##).isEmpty)
        #expect(schema.unknownKeywords.isEmpty)
    }

    @Test func draft7IgnoresTheSiblingsOfRefAnd2020Applies() throws {
        let draft7 = try compiledSchema(
            ##"{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {}}, "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}}}"##)
        let draft2020 = try compiledSchema(##"{"$defs": {"s": {}}, "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 1}}}"##)
        #expect(draft7.dialect == .draft7 && draft2020.dialect == .draft2020_12)
        #expect(try validationFailures(draft7, ##"{"a": "xy"}"##).isEmpty)
        #expect(try validationFailures(draft2020, ##"{"a": "xy"}"##).map(\.keyword) == ["maxLength"])
    }
}

/// Publish warnings: keywords the dialect does not define, with the nearest known one.
@Suite struct CompiledSchemaUnknownKeywordTests {
    @Test func aMisspelledKeywordSuggestsTheKnownOne() throws {
        let schema = try compiledSchema(
            ##"{"properties": {"gate": {"type": "string", "maxLenght": 4, "x-swift-type": "String", "frobnicate": 1}}, "requried": []}"##)
        #expect(
            schema.unknownKeywords == [
                UnknownKeyword(path: "/properties/gate", keyword: "maxLenght", suggestion: "maxLength"),
                UnknownKeyword(path: "/properties/gate", keyword: "frobnicate", suggestion: nil),
                UnknownKeyword(path: "", keyword: "requried", suggestion: "required"),
            ])
    }

    @Test func keywordsOfTheOtherDialectAreUnknown() throws {
        let schema = try compiledSchema(##"{"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [], "additionalItems": false}"##)
        #expect(schema.unknownKeywords.map(\.keyword) == ["prefixItems"])
    }
}

/// What a schema must not be published with, and where it is.
@Suite struct CompiledSchemaCompileErrorTests {
    @Test func aRemoteReferenceIsRefusedNamingTheURI() throws {
        let error = #expect(throws: SchemaCompileError.self) {
            try compiledSchema(##"{"properties": {"a": {"$ref": "https://example.com/other.json#/$defs/x"}}}"##)
        }
        #expect(error?.path == "/properties/a/$ref")
        #expect(error?.message.contains("https://example.com/other.json#/$defs/x") == true)
    }

    @Test func theMetaschemaIsRemoteToo() throws {
        let error = #expect(throws: SchemaCompileError.self) {
            try compiledSchema(##"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"##)
        }
        #expect(error?.path == "/$ref")
    }

    @Test func anUnknownDialectIsRefused() throws {
        let error = #expect(throws: SchemaCompileError.self) {
            try compiledSchema(##"{"$schema": "http://json-schema.org/draft-04/schema#"}"##)
        }
        #expect(error?.path == "/$schema")
        #expect(error?.message.contains("draft-04") == true)
    }

    @Test func anIdInTheDocumentMakesItsURILocal() throws {
        let schema = try compiledSchema(
            ##"{"$id": "https://example.com/root.json", "properties": {"a": {"$ref": "item.json"}}, "$defs": {"i": {"$id": "item.json", "type": "integer"}}}"##)
        #expect(try validationFailures(schema, ##"{"a": "x"}"##).map(\.schemaPath) == ["/$defs/i/type"])
    }

    @Test func aBadPatternIsRefusedAtItsPath() throws {
        let error = #expect(throws: SchemaCompileError.self) { try compiledSchema(##"{"properties": {"a": {"pattern": "(["}}}"##) }
        #expect(error?.path == "/properties/a/pattern")
        let inKey = #expect(throws: SchemaCompileError.self) { try compiledSchema(##"{"patternProperties": {"a/(": {}}}"##) }
        #expect(inKey?.path == "/patternProperties/a~1(")
    }

    @Test func aMalformedKeywordIsRefusedAtItsPath() throws {
        let error = #expect(throws: SchemaCompileError.self) { try compiledSchema(##"{"items": {"minLength": -1}}"##) }
        #expect(error?.path == "/items/minLength")
        #expect(error?.message == "must be a non-negative integer")
    }

    @Test func theNodeLimitIsACompileError() throws {
        let error = #expect(throws: SchemaCompileError.self) {
            try CompiledSchema.compile(
                try JSONParser.parse(##"{"allOf": [{}, {}, {}, {}]}"##), limits: SchemaLimits(maxNodes: 3))
        }
        #expect(error?.message.contains("more than 3 subschemas") == true)
    }
}

/// Work bounds: compile is linear in the schema, evaluation ends when its budget does.
@Suite struct CompiledSchemaWorkTests {
    /// A 300-step `$ref` chain used by 150 properties: each location compiles to one node and
    /// each reference is resolved once, however many paths reach it.
    @Test func aLongReferenceChainUsedOftenCompilesOnce() throws {
        let steps = 300, uses = 150
        var defs: [String] = (0..<steps - 1).map { ##""d\##($0)": {"$ref": "#/$defs/d\##($0 + 1)"}"## }
        defs.append(##""d\##(steps - 1)": {"type": "string", "maxLength": 3}"##)
        let properties = (0..<uses).map { ##""p\##($0)": {"$ref": "#/$defs/d0"}"## }
        let text = ##"{"$defs": {\##(defs.joined(separator: ","))}, "properties": {\##(properties.joined(separator: ","))}}"##
        let schema = try compiledSchema(text)
        #expect(schema.nodeCount == 1 + steps + uses)
        #expect(schema.referenceResolutions == (steps - 1) + uses)

        let value = "{" + (0..<uses).map { ##""p\##($0)": "abcd""## }.joined(separator: ",") + "}"
        var budget = 10_000_000
        let outcome = schema.validate(try JSONParser.parse(value), budget: &budget)
        #expect(outcome.failures.count == uses)
        #expect(outcome.failures.first?.schemaPath == "/$defs/d\(steps - 1)/maxLength")
        // The chain of bare references is collapsed: each property costs a few steps, not 300.
        #expect(10_000_000 - budget <= uses * 8 + 10)
    }

    /// A chain longer than the evaluation depth bound still gives the right answer: its bare
    /// `$ref` steps are collapsed at compile time, so the check never nests through them.
    @Test func aChainDeeperThanTheDepthBoundGivesTheRightAnswer() throws {
        let steps = 1_200
        var defs: [String] = (0..<steps - 1).map { ##""d\##($0)": {"$ref": "#/$defs/d\##($0 + 1)"}"## }
        defs.append(##""d\##(steps - 1)": {"type": "string", "maxLength": 5}"##)
        let text = ##"{"$defs": {\##(defs.joined(separator: ","))}, "properties": {"p": {"$ref": "#/$defs/d0"}}}"##
        let schema = try compiledSchema(text)
        var budget = 1_000_000
        let valid = schema.validate(try JSONParser.parse(#"{"p": "ok"}"#), budget: &budget)
        #expect(valid.failures.isEmpty && !valid.exhausted)
        let invalid = schema.validate(try JSONParser.parse(#"{"p": "too long"}"#), budget: &budget)
        #expect(invalid.failures.map(\.schemaPath) == ["/$defs/d\(steps - 1)/maxLength"])
        #expect(!invalid.exhausted)
    }

    /// A loop of bare references is left for the evaluator, which stops it.
    @Test func aLoopOfBareReferencesIsNotCollapsedAway() throws {
        let schema = try compiledSchema(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "properties": {"p": {"$ref": "#/$defs/a"}}}"##)
        var budget = 100_000
        let outcome = schema.validate(try JSONParser.parse(#"{"p": 1}"#), budget: &budget)
        #expect(!outcome.failures.isEmpty || outcome.exhausted)
    }

    /// A cache counts compiled schemas by their heap size, which grows with what they hold.
    @Test func heapSizeGrowsWithTheSchema() throws {
        let small = try compiledSchema(##"{"properties": {"a": {"type": "string"}}}"##)
        let properties = (0..<100).map { ##""field\##($0)": {"type": "string", "pattern": "^[A-Z]{2}[0-9]+$", "enum": ["one", "two"]}"## }
        let large = try compiledSchema("{\"properties\": {\(properties.joined(separator: ","))}}")
        #expect(small.heapSize > 0)
        #expect(large.heapSize > 50 * small.heapSize)
    }

    /// Two branches that both recurse make work exponential in the value's depth; the budget
    /// ends it.
    @Test func anExponentialSchemaEndsExhausted() throws {
        let schema = try compiledSchema(##"{"anyOf": [{"items": {"$ref": "#"}}, {"items": {"$ref": "#"}, "minItems": 0}]}"##)
        var value = JSONValue.array([])
        for _ in 0..<40 { value = .array([value]) }
        var budget = 100_000
        let outcome = schema.validate(value, budget: &budget)
        #expect(outcome.exhausted)
        #expect(budget == 0)
    }

    /// A value deeper than the evaluation depth limit ends exhausted instead of overflowing
    /// the stack.
    @Test func aDeepValueEndsAtTheDepthLimit() throws {
        let schema = try CompiledSchema.compile(
            try JSONParser.parse(##"{"items": {"$ref": "#"}}"##), limits: SchemaLimits(maxEvaluationDepth: 100))
        var value = JSONValue.array([])
        for _ in 0..<500 { value = .array([value]) }
        var budget = 1_000_000
        #expect(schema.validate(value, budget: &budget).exhausted)
    }

    @Test func aReferenceLoopWithoutProgressFailsInsteadOfRecursing() throws {
        let schema = try compiledSchema(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##)
        var budget = 1_000_000
        let outcome = schema.validate(.number("1"), budget: &budget)
        #expect(!outcome.exhausted)
        #expect(outcome.failures.map(\.keyword) == ["$ref"])
        #expect(outcome.failures.first?.message.contains("refers back to itself") == true)
    }

    @Test func aWideValueSpendsTheBudgetAndStops() throws {
        let schema = try compiledSchema(##"{"items": {"type": "integer", "minimum": 0}}"##)
        var budget = 1_000
        let outcome = schema.validate(.array(Array(repeating: .number("1"), count: 10_000)), budget: &budget)
        #expect(outcome.exhausted)
    }

    /// Members visited cost budget even when no subschema applies to them.
    @Test func aWideObjectSpendsTheBudgetAndStops() throws {
        let schema = try compiledSchema(##"{"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}], "required": ["z"]}"##)
        let members = (0..<10_000).map { (key: "k\($0)", value: JSONValue.null) }
        var budget = 1_000
        #expect(schema.validate(.object(JSONObject(members)), budget: &budget).exhausted)
    }
}

/// The default evaluation depth fits a test thread's stack (a value nested past it ends
/// exhausted, not in a crash).
@Suite struct CompiledSchemaStackTests {
    @Test func theDefaultDepthLimitFitsTheStack() throws {
        let schema = try compiledSchema(##"{"items": {"$ref": "#"}, "anyOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"allOf": [{}]}}}"##)
        var value = JSONValue.array([])
        for _ in 0..<5_000 { value = .array([value]) }
        var budget = 10_000_000
        #expect(schema.validate(value, budget: &budget).exhausted)
    }
}
