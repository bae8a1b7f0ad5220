@testable import Registry
import Testing

/// The form understands what the value check understands: fields the app needs, choices among
/// constants, and a reason wherever it falls back to a raw editor.
@Suite struct FormChoiceAndReasonTests {
    @Test func contentFieldsOfTheRootRequiredAreNeededByTheApp() throws {
        let json = try FormFixture.formText(
            #"{"type":"object","properties":{"gate":{"type":"string"},"eta":{"type":"integer"}},"required":["eta"]}"#)
        #expect(json.contains(#""name":"eta","path":"content-state.eta","label":"ETA","type":"integer","widget":"number","required":false,"needed_by_app":true"#))
        #expect(!json.contains(#""name":"gate","path":"content-state.gate","label":"Gate","type":"string","widget":"text","required":false,"needed_by_app""#))
        let form = try FormFixture.form(
            #"{"type":"object","properties":{"gate":{"type":"string"},"eta":{"type":"integer"}},"required":["eta"]}"#)
        #expect(form.content.fields.map(\.isNeededByApp) == [false, true])
        #expect(form.content.fields.map(\.isRequired) == [false, false])
    }

    @Test func aSchemaWithoutRootRequiredNeedsNothing() throws {
        let form = try FormFixture.form(#"{"type":"object","properties":{"gate":{"type":"string"}}}"#)
        #expect(form.content.fields.map(\.isNeededByApp) == [false])
    }

    @Test(arguments: ["oneOf", "anyOf"])
    func alternativesOfConstantsAreASelect(keyword: String) throws {
        let field = try FormFixture.field(
            #"{"type":"string","\#(keyword)":[{"const":"on_time","title":"On schedule"},{"const":"late"}]}"#)
        #expect(field.widget == .select)
        #expect(field.type == .string)
        #expect(field.options == [FormOption(value: "on_time", label: "On schedule"), FormOption(value: "late", label: "Late")])
        #expect(field.fallbackReason == nil)
    }

    @Test func alternativesOfConstantsWithoutTypeTakeTheValuesType() throws {
        let field = try FormFixture.field(#"{"oneOf":[{"const":1},{"const":2}]}"#)
        #expect(field.widget == .select)
        #expect(field.type == .integer)
    }

    @Test func alternativesOfSchemasFallBackWithTheKeyword() throws {
        let field = try FormFixture.field(#"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#)
        #expect(field.widget == .json)
        #expect(field.fallbackReason == "oneOf makes the value's shape depend on several schemas, which one editor cannot show")
    }

    @Test func everyFallbackSaysWhy() throws {
        #expect(try FormFixture.field(#"{"type":["string","number"]}"#).fallbackReason == #"type allows several types ("string", "number")"#)
        #expect(try FormFixture.field(#"{"type":"date"}"#).fallbackReason == #"type "date" is not one JSON Schema type"#)
        #expect(try FormFixture.field(#"{"type":"string","enum":[]}"#).fallbackReason == "enum is not a non-empty list of values")
        #expect(try FormFixture.field(#"{"type":"string","not":{"const":"x"}}"#).fallbackReason?.hasPrefix("not makes") == true)
        #expect(try FormFixture.field("{}").fallbackReason == nil)
    }

    @Test func brokenReferencesSayWhich() throws {
        let cyclic = try FormFixture.form(
            ##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"##)
        #expect(cyclic.content.fields[0].fallbackReason == ##"$ref "#/$defs/A" contains itself"##)
        let missing = try FormFixture.form(##"{"type":"object","properties":{"a":{"$ref":"#/$defs/Nowhere"}}}"##)
        #expect(missing.content.fields[0].fallbackReason == ##"$ref "#/$defs/Nowhere" cannot be followed"##)
    }

    /// A 1,200-step chain used by 600 fields (the red team's 53 KB schema) looks each reference
    /// up once, not once per use: 1,200 lookups, where following every use took 720,000.
    @Test func aLongChainUsedManyTimesIsFollowedOnce() throws {
        let steps = 1_200
        let uses = 600
        var definitions: [String] = (0..<steps - 1).map { ##""d\##($0)":{"$ref":"#/$defs/d\##($0 + 1)"}"## }
        definitions.append(##""d\##(steps - 1)":{"type":"string","maxLength":5}"##)
        let properties = (0..<uses).map { ##""p\##($0)":{"$ref":"#/$defs/d0"}"## }
        let text = ##"{"type":"object","properties":{\##(properties.joined(separator: ","))},"$defs":{\##(definitions.joined(separator: ","))}}"##
        let document = try SchemaRules.validate(text)
        var describer = FieldDescriber(document: document)
        let fields = describer.sectionUses(of: document.contentProperties, required: [])
        #expect(fields.count == uses)
        #expect(fields.allSatisfy { $0.shape.traits.widget == .text && $0.shape.traits.constraints["max_length"] == .number("5") })
        #expect(describer.referenceLookups == steps)
    }
}
