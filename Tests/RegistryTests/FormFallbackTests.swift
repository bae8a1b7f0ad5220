import Registry
import Testing

/// Whatever the form cannot express becomes `any` in a raw JSON editor for that one field,
/// never an error.
@Suite struct FormFallbackTests {
    private func isRawEditor(_ field: FormField) -> Bool {
        field.type == .any && field.widget == .json && field.children == .none && field.options.isEmpty
    }

    @Test func fieldWithoutTypeIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(#"{"title":"Anything","minLength":1}"#)))
    }

    @Test func emptySchemaIsAny() throws {
        #expect(isRawEditor(try FormFixture.field("{}")))
    }

    @Test func trueSchemaIsAny() throws {
        let field = try FormFixture.field(#"{"type":"object","properties":{"a":true}}"#)
        #expect(isRawEditor(field.children.fields[0]))
    }

    @Test func severalNonNullTypesAreAny() throws {
        #expect(isRawEditor(try FormFixture.field(#"{"type":["string","number"]}"#)))
        #expect(isRawEditor(try FormFixture.field(#"{"type":["string","integer","null"]}"#)))
    }

    @Test func nullTypeAloneIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(#"{"type":"null"}"#)))
    }

    @Test func unknownTypeNameIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(#"{"type":"date"}"#)))
    }

    @Test(arguments: ["oneOf", "anyOf", "allOf"])
    func schemaCombinationsAreAny(keyword: String) throws {
        #expect(isRawEditor(try FormFixture.field(#"{"type":"string","\#(keyword)":[{"maxLength":3},{"minLength":9}]}"#)))
    }

    @Test func notIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(#"{"type":"string","not":{"const":"x"}}"#)))
    }

    @Test func patternPropertiesIsAny() throws {
        let field = try FormFixture.field(
            #"{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x":{}}}"#)
        #expect(isRawEditor(field))
    }

    @Test func malformedOrEmptyEnumIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(#"{"type":"string","enum":"a"}"#)))
        #expect(isRawEditor(try FormFixture.field(#"{"type":"string","enum":[]}"#)))
    }

    @Test func fallbackKeepsTheAuthorsTitleDescriptionAndDefault() throws {
        let fieldJSON = try FormFixture.json(#"{"title":"Extra","description":"Free data","default":{"a":1},"oneOf":[]}"#)
        #expect(
            fieldJSON
                == #"{"name":"x","path":"content-state.x","label":"Extra","type":"any","widget":"json","required":false,"description":"Free data","default":{"a":1},"fallback_reason":"oneOf makes the value's shape depend on several schemas, which one editor cannot show"}"#
        )
    }

    @Test func fallbackIsLimitedToTheOneField() throws {
        let form = try FormFixture.form(
            #"{"type":"object","properties":{"a":{"oneOf":[]},"b":{"type":"string"}}}"#)
        #expect(form.content.fields.map(\.widget) == [.json, .text])
    }

    @Test func fallbackFieldInAttributesKeepsItsRequiredFlag() throws {
        let form = try FormFixture.form(
            #"{"type":"object","attributes":{"properties":{"a":{"anyOf":[]}},"required":["a"]}}"#)
        #expect(form.attributes.fields[0].isRequired)
        #expect(isRawEditor(form.attributes.fields[0]))
    }
}
