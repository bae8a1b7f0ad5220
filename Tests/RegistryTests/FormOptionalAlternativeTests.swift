import Testing

@testable import Registry

/// An optional written as two alternatives, one schema and `{"type":"null"}`: what
/// `schema-from-swift` writes for a `$ref`'d type made optional (`Status?`), and pydantic for
/// `Optional[T]`. The field is that schema's editor, nullable, not a raw JSON editor.
@Suite struct FormOptionalAlternativeTests {
    static let statusDefs = ##"{"Status":{"type":"string","enum":["on_time","delayed"],"title":"Status"}}"##

    @Test(arguments: ["anyOf", "oneOf"], [true, false])
    func optionalReferencedEnumIsANullableSelect(keyword: String, nullFirst: Bool) throws {
        let branches = [##"{"$ref":"#/$defs/Status"}"##, #"{"type":"null"}"#]
        let list = (nullFirst ? branches.reversed() : branches).joined(separator: ",")
        let field = try FormFixture.field(#"{"\#(keyword)":[\#(list)]}"#, defs: Self.statusDefs)
        #expect((field.type, field.widget, field.isNullable) == (.string, .select, true))
        #expect(field.options.map(\.value) == [.string("on_time"), .string("delayed")])
        #expect(field.label == "Status")
        #expect(field.fallbackReason == nil)
    }

    @Test func optionalInlineSchemaKeepsItsConstraintsAndTheOuterWords() throws {
        let (field, json) = try FormFixture.fieldWithJSON(
            #"{"description":"Where to board","anyOf":[{"type":"string","maxLength":4,"description":"A gate"},{"type":"null"}]}"#)
        #expect((field.type, field.widget, field.isNullable) == (.string, .text, true))
        #expect(field.description == "Where to board")
        #expect(json.contains(#""nullable":true"#))
        #expect(json.contains(#""constraints":{"max_length":4}"#))
    }

    @Test func optionalObjectIsANullableGroup() throws {
        let field = try FormFixture.field(
            ##"{"anyOf":[{"$ref":"#/$defs/Leg"},{"type":"null"}]}"##,
            defs: #"{"Leg":{"type":"object","properties":{"terminal":{"type":"string"}}}}"#)
        #expect((field.widget, field.isNullable) == (.group, true))
        #expect(field.children.fields.map(\.name) == ["terminal"])
    }

    /// Only words may sit beside the two alternatives: a `type` there would refuse the null,
    /// and a `$ref` is a third schema the value must also match.
    @Test(arguments: [
        ##"{"type":"string","anyOf":[{"maxLength":3},{"type":"null"}]}"##,
        ##"{"$ref":"#/$defs/Status","anyOf":[{"maxLength":3},{"type":"null"}]}"##,
        ##"{"anyOf":[{"type":"string"},{"type":"null"},{"type":"integer"}]}"##,
        ##"{"anyOf":[{"type":"null"},{"type":"null"}]}"##,
        ##"{"anyOf":[{"type":"string"},{"type":"null","minLength":1}]}"##,
        ##"{"anyOf":[{"type":"string"},{"type":"null"}],"oneOf":[{"maxLength":3},{"minLength":9}]}"##,
    ])
    func otherListsStayRawEditors(schema: String) throws {
        let field = try FormFixture.field(schema, defs: Self.statusDefs)
        #expect(field.widget == .json)
        #expect(field.fallbackReason != nil)
    }

    /// `oneOf` refuses a value both branches match: beside a schema that allows null, null is
    /// not allowed at all, which no nullable editor can show.
    @Test func oneOfBesideANullableSchemaIsARawEditor() throws {
        let field = try FormFixture.field(#"{"oneOf":[{"type":["string","null"]},{"type":"null"}]}"#)
        #expect(field.widget == .json)
        #expect(field.fallbackReason == "oneOf refuses null here, because both of its schemas allow it")
        let anyOf = try FormFixture.field(#"{"anyOf":[{"type":["string","null"]},{"type":"null"}]}"#)
        #expect((anyOf.widget, anyOf.isNullable) == (.text, true))
    }

    /// Merged into an `allOf`, the null would need the other schemas to allow it too.
    @Test func optionalInsideAllOfIsNotMerged() throws {
        let field = try FormFixture.field(
            #"{"allOf":[{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}]},{"properties":{"b":{"type":"string"}}}]}"#)
        #expect(field.widget == .json)
    }
}
