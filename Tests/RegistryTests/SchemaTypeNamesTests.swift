import Registry
import Testing

/// A `type` that is not one of JSON Schema's seven names is a warning with its path, never an
/// error, and suggests the nearest name when one is close.
@Suite struct SchemaTypeNamesTests {
    @Test func unknownNamesAnywhereInTheSchemaAreWarnedAboutWithTheirPath() throws {
        let document = try SchemaRules.validate(
            #"""
            {"type":"object","properties":{"gate":{"type":"strng"},"seats":{"type":"array","items":{"type":["integr","null"]}},
             "leg":{"type":"object","properties":{"type":{"type":"String"}}},"ok":{"type":["string","null"]}},
             "$defs":{"Leg":{"anyOf":[{"type":"bool"},{"type":5}]}},
             "attributes":{"properties":{"flightNumber":{"type":"text","default":{"type":"nope"},"enum":[{"type":"x"}]}}}}
            """#)
        let warnings = SchemaTypeNames.warnings(in: document)
        #expect(
            warnings.map { ExactName($0.path) } == [
                "jsonSchema.properties.gate.type", "jsonSchema.properties.seats.items.type[0]",
                "jsonSchema.properties.leg.properties.type.type", "jsonSchema.$defs.Leg.anyOf[0].type",
                "jsonSchema.$defs.Leg.anyOf[1].type", "jsonSchema.attributes.properties.flightNumber.type",
            ].map(ExactName.init))
        #expect(
            warnings.map(\.message) == [
                #""strng" is not a JSON Schema type name; did you mean "string"?"#,
                #""integr" is not a JSON Schema type name; did you mean "integer"?"#,
                #""String" is not a JSON Schema type name; did you mean "string"?"#,
                #""bool" is not a JSON Schema type name; did you mean "boolean"?"#,
                "must be a type name or a list of them, not number",
                #""text" is not a JSON Schema type name (string, number, integer, boolean, object, array, null)"#,
            ])
    }

    @Test func validSchemasGetNoWarning() throws {
        let document = try SchemaRules.validate(
            #"{"type":"object","properties":{"a":{"type":["string","number","integer","boolean","object","array","null"]},"b":{}}}"#)
        #expect(SchemaTypeNames.warnings(in: document).isEmpty)
    }

    @Test func namesAreComparedByScalarsAndLookAlikesAreUnknown() {
        // Cyrillic ѕ (U+0455) for s: looks like "string", is another name.
        #expect(!SchemaTypeNames.isTypeName("\u{455}tring"))
        #expect(SchemaTypeNames.suggestion(for: "\u{455}tring") == "string")
        #expect(SchemaTypeNames.isTypeName("string"))
    }

    @Test func suggestionsOnlyForCloseNames() {
        let cases: [(String, String?)] = [
            ("strng", "string"), ("sting", "string"), ("strnig", "string"), ("STRING", "string"), ("nul", "null"),
            ("arr", "array"), ("objet", "object"), ("int", "integer"), ("float", "number"), ("dict", "object"),
            ("foo", nil), ("text", nil), ("date", nil), ("", nil), ("stringstringstring", nil), ("any", nil),
        ]
        for (name, expected) in cases {
            #expect(SchemaTypeNames.suggestion(for: name) == expected, "\(name)")
        }
    }

    @Test func manyUnknownNamesAreCountedPastTheLimit() throws {
        let fields = (0..<50).map { #""f\#($0)":{"type":"x\#($0)"}"# }.joined(separator: ",")
        let document = try SchemaRules.validate(#"{"type":"object","properties":{"# + fields + "}}")
        let warnings = SchemaTypeNames.warnings(in: document)
        #expect(warnings.count == SchemaTypeNames.maxListed + 1)
        #expect(warnings.last == SchemaWarning(path: "jsonSchema", message: "30 more \"type\" values are not JSON Schema type names"))
    }

    @Test func aLongUnknownNameIsQuotedShort() throws {
        let long = String(repeating: "s", count: 10_000)
        let document = try SchemaRules.validate(#"{"type":"object","properties":{"a":{"type":""# + long + #""}}}"#)
        let message = try #require(SchemaTypeNames.warnings(in: document).first?.message)
        #expect(message.utf8.count < 300)
        #expect(message.contains("(10,000 bytes)"))
    }
}
