import Registry
import Testing

@Suite struct SchemaRulesTests {
    static let flight = #"""
        {"type":"object","properties":{"gate":{"type":"string"},"status":{"type":"string"},"estimatedTime":{"type":"string"}},
         "attributes":{"properties":{"flightNumber":{"type":"string"}},"required":["flightNumber"]}}
        """#

    func rejection(_ text: String) -> String? {
        do {
            _ = try SchemaRules.validate(text)
            return nil
        } catch {
            #expect(error.code == .invalidArgument)
            return error.message
        }
    }

    @Test func acceptsTheSpecExampleAndSplitsItsParts() throws {
        let document = try SchemaRules.validate(Self.flight)
        #expect(document.contentProperties.keys == ["gate", "status", "estimatedTime"])
        #expect(document.attributesProperties?.keys == ["flightNumber"])
        #expect(document.attributesRequired == ["flightNumber"])
    }

    @Test func acceptsExactly65536BytesAndRejects65537() {
        let base = #"{"type":"object","description":""}"#
        let padding = 65_536 - base.utf8.count
        let exact = #"{"type":"object","description":""# + String(repeating: "é", count: padding / 2) + #""}"#
        #expect(exact.utf8.count == 65_536)
        #expect(rejection(exact) == nil)
        let over = #"{"type":"object","description":"x"# + String(repeating: "é", count: padding / 2) + #""}"#
        #expect(over.utf8.count == 65_537)
        #expect(rejection(over)?.contains("65537 bytes") == true)
    }

    @Test func rejectsTextThatIsNotJSON() {
        #expect(rejection(#"{"type":"object",}"#)?.hasPrefix("jsonSchema: not valid JSON") == true)
    }

    @Test func rejectsDuplicateKeysNamingThePath() {
        let message = rejection(#"{"type":"object","properties":{"gate":{},"gate":{}}}"#)
        #expect(message?.hasPrefix("jsonSchema.properties.gate: not valid JSON: duplicate key") == true)
    }

    @Test func acceptsSixtyFourLevelsAndRejectsSixtyFive() {
        func nested(_ levels: Int) -> String {
            #"{"type":"object","x":"# + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}"
        }
        #expect(rejection(nested(64)) == nil)
        #expect(rejection(nested(65))?.contains("nested deeper than 64 levels") == true)
    }

    @Test(arguments: ["null", "42", #""""#, #""object""#, "[]", "{}", #"{"type":"array"}"#, #"{"type":["object"]}"#])
    func rejectsRootsThatAreNotObjectSchemas(text: String) {
        #expect(rejection(text) != nil)
    }

    @Test func rejectsPropertiesThatAreNotAnObjectOfSchemas() {
        #expect(rejection(#"{"type":"object","properties":null}"#) == "jsonSchema.properties: must be an object, not null")
        #expect(rejection(#"{"type":"object","properties":[]}"#) == "jsonSchema.properties: must be an object, not array")
        #expect(
            rejection(#"{"type":"object","properties":{"gate":"string"}}"#)
                == "jsonSchema.properties.gate: must be an object (a schema), not string")
    }

    @Test func rejectsABadAttributesSection() {
        #expect(rejection(#"{"type":"object","attributes":null}"#) == "jsonSchema.attributes: must be an object, not null")
        #expect(
            rejection(#"{"type":"object","attributes":{}}"#)
                == "jsonSchema.attributes.properties: is required and must be an object")
        #expect(
            rejection(#"{"type":"object","attributes":{"properties":{"a":1}}}"#)
                == "jsonSchema.attributes.properties.a: must be an object (a schema), not number")
    }

    @Test func rejectsAttributesRequiredThatIsNotUniqueDeclaredStrings() {
        let base = #"{"type":"object","attributes":{"properties":{"a":{},"b":{}},"required":"#
        #expect(rejection(base + #""a"}}"#) == "jsonSchema.attributes.required: must be an array of strings, not string")
        #expect(rejection(base + #"["a",1]}}"#) == "jsonSchema.attributes.required[1]: must be a string, not number")
        #expect(rejection(base + #"["a","a"]}}"#) == #"jsonSchema.attributes.required[1]: "a" is listed twice"#)
        #expect(
            rejection(base + #"["a","c"]}}"#)
                == #"jsonSchema.attributes.required[1]: "c" is not declared in jsonSchema.attributes.properties"#)
    }

    @Test func rejectsAFieldDeclaredAsBothContentAndAttribute() {
        let message = rejection(#"{"type":"object","properties":{"gate":{}},"attributes":{"properties":{"gate":{}}}}"#)
        #expect(message?.hasPrefix("jsonSchema.attributes.properties.gate:") == true)
    }

    @Test func acceptsARootRequiredListWithoutMakingContentRequired() throws {
        let document = try SchemaRules.validate(#"{"type":"object","properties":{"gate":{}},"required":["gate"]}"#)
        #expect(document.attributesProperties == nil)
    }
}

@Suite struct AttributesTypeNameTests {
    @Test func acceptsUpTo256ScalarsAndRejectsMore() throws {
        try AttributesTypeName.validate(String(repeating: "é", count: 256))
        #expect(throws: RegistryError.self) { try AttributesTypeName.validate(String(repeating: "a", count: 257)) }
    }

    @Test(arguments: ["", "a/b", "a\u{0}b", "a\u{1F}", "a\u{7F}", "a\u{85}", "a\u{9F}"])
    func rejectsEmptySlashAndControlCharacters(name: String) {
        #expect(throws: RegistryError.self) { try AttributesTypeName.validate(name) }
    }

    @Test func acceptsColonsSpacesAndNonLatinNames() throws {
        try AttributesTypeName.validate("Module.Flight Attributes:v2 ফ্লাইট")
    }
}

@Suite struct VersionNumberTests {
    @Test func acceptsNumbersAndNumericStringsInRange() throws {
        #expect(try VersionNumber.parse(.number("1")) == 1)
        #expect(try VersionNumber.parse(.string("2147483647")) == Int32.max)
        #expect(try VersionNumber.parse(.number("3.0")) == 3)
    }

    @Test(arguments: [JSONValue.number("0"), .number("-1"), .number("2147483648"), .number("1.5"), .string("abc"),
                      .string(""), .string("1e2"), .bool(true), .array([])])
    func rejectsEverythingElse(value: JSONValue) {
        #expect(throws: RegistryError.self) { try VersionNumber.parse(value) }
    }
}
