import Registry
import Testing

/// `é` written two ways: U+00E9 (NFC) and `e` + U+0301 (NFD). Swift's `==` calls them equal;
/// PostgreSQL, JSON and JSON Schema call them two names, and so must every rule here.
private let composed = "\u{E9}"
private let decomposed = "e\u{301}"

/// Compares names by bytes, since `[String] ==` would hide exactly the difference under test.
private func exact(_ names: [String]) -> [ExactName] { names.map(ExactName.init) }

@Suite struct ExactNameTests {
    @Test func namesSwiftCallsEqualAreDistinctExactNames() {
        #expect(composed == decomposed, "the trap this type exists for")
        #expect(ExactName(composed) != ExactName(decomposed))
        #expect(ExactName(composed) == ExactName("\u{E9}"))
        #expect(Set(exact([composed, decomposed, "\u{212A}", "K", composed])).count == 4)
        #expect(!composed.hasSameBytes(as: decomposed))
        #expect([composed].containsExactly(composed))
        #expect(![composed].containsExactly(decomposed))
    }

    @Test func prefixesAndSuffixesCompareByBytes() {
        #expect("Caf\u{E9}".hasSuffix("Caf" + decomposed), "the trap: Characters match across spellings")
        #expect(!"Caf\u{E9}".hasByteSuffix("f" + decomposed))
        #expect("Cafe\u{301}".hasByteSuffix("e\u{301}") && "Cafe\u{301}".hasByteSuffix(""))
        #expect(!"\u{212A}elvin".hasBytePrefix("K") && "Kelvin".hasBytePrefix("Ke"))
        // A combining mark after a prefix hides it from `hasPrefix`, not from the bytes.
        #expect(!"a1:\u{301}".hasPrefix("a1:") && "a1:\u{301}".hasBytePrefix("a1:"))
        #expect(!"e".hasByteSuffix("e\u{301}"))
        #expect("\u{212A}"[...].hasSameBytes(as: "\u{212A}") && !"\u{212A}"[...].hasSameBytes(as: "K"))
    }

    @Test func jsonStringsAndObjectKeysCompareByScalars() throws {
        #expect(JSONValue.string(composed) != .string(decomposed))
        #expect(JSONObject([(key: composed, value: 1)]) != JSONObject([(key: decomposed, value: 1)]))
        let object = try #require(try JSONParser.parse(#"{"\u00e9":1,"e\u0301":2}"#).objectValue)
        #expect(object[composed] == .number("1"))
        #expect(object[decomposed] == .number("2"))
        #expect(object["e"] == nil)
    }

    /// The parser scans small objects and keeps a set for wide ones; both compare scalars.
    @Test(arguments: [0, 12])
    func duplicateKeyDetectionComparesScalars(otherKeys: Int) throws {
        let others = (0..<otherKeys).map { #""k\#($0)":0,"# }.joined()
        let options = JSONParser.Options(rejectDuplicateKeys: true)
        let distinct = try JSONParser.parse("{" + others + #""\u00e9":1,"e\u0301":2}"#, options: options)
        #expect(distinct.objectValue?.count == otherKeys + 2)
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{" + others + #""\u00e9":1,"\u00e9":2}"#, options: options) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{" + others + #""e\u0301":1,"e\u0301":2}"#, options: options) }
    }
}

@Suite struct SchemaRulesExactNameTests {
    @Test func propertiesDifferingOnlyByNormalisationAreTwoProperties() throws {
        let document = try SchemaRules.validate(
            #"{"type":"object","properties":{"\u00e9":{"type":"string"},"e\u0301":{"type":"integer"}}}"#)
        #expect(exact(document.contentProperties.keys) == exact([composed, decomposed]))
    }

    @Test func requiredNamingOnlyALookAlikeOfADeclaredPropertyIsRejected() {
        let text = #"{"type":"object","attributes":{"properties":{"\u00e9":{"type":"string"}},"required":["e\u0301"]}}"#
        #expect {
            try SchemaRules.validate(text)
        } throws: { error in
            let error = try #require(error as? RegistryError)
            return error.code == .invalidArgument
                && ExactName(error.message)
                    == ExactName(
                        "jsonSchema.attributes.required[0]: \"\(decomposed)\" is not declared in jsonSchema.attributes.properties")
        }
    }

    @Test func requiredListsBothSpellingsWhenBothAreDeclared() throws {
        let document = try SchemaRules.validate(
            #"{"type":"object","attributes":{"properties":{"\u00e9":{},"e\u0301":{}},"required":["\u00e9","e\u0301"]}}"#)
        #expect(exact(document.attributesRequired) == exact([composed, decomposed]))
    }

    @Test func contentAndAttributeKeysDifferingByNormalisationAreDistinct() throws {
        let document = try SchemaRules.validate(
            #"{"type":"object","properties":{"\u00e9":{}},"attributes":{"properties":{"e\u0301":{}}}}"#)
        #expect(exact(document.contentProperties.keys) == exact([composed]))
        #expect(exact(document.attributesProperties?.keys ?? []) == exact([decomposed]))
    }
}

@Suite struct FormExactNameTests {
    @Test func requiredMarksOnlyTheExactlyNamedFieldAtEveryLevel() throws {
        let form = try FormFixture.form(
            #"""
            {"type":"object",
             "properties":{"group":{"type":"object","properties":{"\u00e9":{},"e\u0301":{}},"required":["e\u0301"]}},
             "attributes":{"properties":{"\u00e9":{},"e\u0301":{}},"required":["\u00e9"]}}
            """#)
        #expect(exact(form.attributes.fields.map(\.name)) == exact([composed, decomposed]))
        #expect(form.attributes.fields.map(\.isRequired) == [true, false])
        let nested = try #require(form.content.fields.first).children.fields
        #expect(exact(nested.map(\.name)) == exact([composed, decomposed]))
        #expect(nested.map(\.isRequired) == [false, true])
    }

    @Test func referencesLeadToTheExactlyNamedDefinition() throws {
        let form = try FormFixture.form(
            #"""
            {"type":"object",
             "properties":{"first":{"$ref":"#/$defs/Caf\u00e9"},"second":{"$ref":"#/$defs/Cafe\u0301"},
                           "third":{"$ref":"#/$defs/Cafe\u0301"}},
             "$defs":{"Caf\u00e9":{"type":"string"},"Cafe\u0301":{"type":"integer"}}}
            """#)
        #expect(form.content.fields.map(\.type) == [.string, .integer, .integer])
    }
}

@Suite struct CompatibilityExactNameTests {
    @Test func aKeyRespelledInAnotherNormalisationIsARemovedField() throws {
        let old = try SchemaRules.validate(#"{"type":"object","properties":{"\u00e9":{"type":"string"}}}"#)
        let new = try SchemaRules.validate(#"{"type":"object","properties":{"e\u0301":{"type":"string"}}}"#)
        let found = Compatibility.problems(from: old, oldVersion: 1, to: new)
        #expect(found.map(\.kind) == [.removed])
        #expect(exact(found.map(\.path)) == exact(["content-state.\(composed)"]))
    }

    @Test func problemsOfLookAlikeFieldsComeInByteOrderOfTheirPaths() throws {
        let old = try SchemaRules.validate(#"{"type":"object","properties":{"\u00e9":{},"e\u0301":{}}}"#)
        let found = Compatibility.problems(from: old, oldVersion: 1, to: try SchemaRules.validate(#"{"type":"object"}"#))
        #expect(exact(found.map(\.path)) == exact(["content-state.\(decomposed)", "content-state.\(composed)"]))
    }
}

@Suite struct PushExactNameTests {
    let schema: SchemaDocument

    init() throws {
        schema = try pushSchema(
            #"""
            {"type":"object","properties":{"\u00e9":{"type":"string","enum":["\u00e9"]}},"required":["\u00e9"],
             "attributes":{"properties":{"Caf\u00e9":{"type":"string"}},"required":["Caf\u00e9"]}}
            """#)
    }

    @Test func aLookAlikeKeyIsUndeclaredAndLeavesTheDeclaredOneMissing() throws {
        let result = PushValueChecker.check(
            schema, event: .start, contentState: try pushObject(#"{"e\u0301":5}"#),
            attributes: try pushObject(#"{"Cafe\u0301":"x"}"#))
        let problems = result.problems.map { "\($0.severity.rawValue) \($0.path): \($0.message)" }
        #expect(
            exact(problems) == exact([
                "error content-state.\(composed): is required: the app's ContentState cannot decode an update without it",
                "warning content-state[\"\(decomposed)\"]: is not declared in the schema; ActivityKit ignores it",
                "error attributes.Caf\(composed): is required at start and must not be empty",
                "warning attributes[\"Caf\(decomposed)\"]: is not declared in the schema; ActivityKit ignores it",
            ]), "\(problems)")
    }

    @Test func enumValuesCompareByScalars() throws {
        let matching = PushValueChecker.check(
            schema, event: .update, contentState: try pushObject(#"{"\u00e9":"\u00e9"}"#), attributes: nil)
        #expect(matching.problems.isEmpty)
        let lookAlike = PushValueChecker.check(
            schema, event: .update, contentState: try pushObject(#"{"\u00e9":"e\u0301"}"#), attributes: nil)
        #expect(exact(lookAlike.problems.map(\.message)) == exact(["must be one of \"\(composed)\""]))
    }
}
