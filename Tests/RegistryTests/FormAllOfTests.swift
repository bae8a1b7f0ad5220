@testable import Registry
import Testing

/// `allOf` of object schemas is one object with every branch's properties and required names;
/// a merge that would change what is valid falls back to a raw editor saying why.
@Suite struct FormAllOfTests {
    static let defs = #"""
        {"Place":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},
         "Timed":{"type":"object","properties":{"at":{"type":"string","format":"date-time"}}}}
        """#

    @Test func branchesMergeIntoOneGroup() throws {
        let field = try FormFixture.field(
            ##"{"allOf":[{"$ref":"#/$defs/Place"},{"$ref":"#/$defs/Timed"},{"required":["at"]}],"properties":{"gate":{"type":"string"}}}"##,
            defs: Self.defs)
        #expect(field.widget == .group)
        #expect(field.type == .object)
        #expect(field.fallbackReason == nil)
        #expect(field.children.fields.map(\.name) == ["city", "at", "gate"])
        #expect(field.children.fields.map(\.isRequired) == [true, true, false])
        #expect(field.children.fields.map(\.widget) == [.text, .datetime, .text])
    }

    @Test func theSamePropertyWithTheSameSchemaMerges() throws {
        let field = try FormFixture.field(
            #"{"allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"a":{"type":"string"},"b":{"type":"integer"}}},true]}"#)
        #expect(field.children.fields.map(\.name) == ["a", "b"])
    }

    @Test func twoAllOfsWithTheSameTextAreTwoGroups() throws {
        // Two lists of equal text, merged one after the other: their merged objects are two
        // objects alive together, so the second never reuses the first one's fields by address.
        let form = try FormFixture.form(
            #"{"type":"object","properties":{"p":{"allOf":[{"properties":{"a":{"type":"string"}}}]},"q":{"allOf":[{"properties":{"a":{"type":"integer"}}}]},"r":{"allOf":[{"properties":{"a":{"type":"string"}}}]}}}"#)
        #expect(form.content.fields.map { $0.children.fields.map(\.path) } == [["content-state.p.a"], ["content-state.q.a"], ["content-state.r.a"]])
        #expect(form.content.fields.map { $0.children.fields.map(\.type) } == [[.string], [.integer], [.string]])
    }

    @Test func oneDefinitionWithAllOfUsedTwiceIsMergedOnce() throws {
        let text = ##"{"type":"object","properties":{"p":{"$ref":"#/$defs/M"},"q":{"$ref":"#/$defs/M"}},"$defs":{"M":{"allOf":[{"properties":{"a":{"type":"string"}}}]}}}"##
        let document = try SchemaRules.readStored(text)
        var describer = FieldDescriber(document: document)
        let uses = describer.sectionUses(of: document.contentProperties, required: [])
        // One merged object for both uses: one shared description of its fields.
        #expect(uses[0].shape.fields.first?.shape === uses[1].shape.fields.first?.shape)
        #expect(FormBuilder.form(for: document).content.fields.map { $0.children.fields.map(\.path) } == [["content-state.p.a"], ["content-state.q.a"]])
    }

    @Test(arguments: [
        (#"{"allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"a":{"type":"integer"}}}]}"#,
         #"allOf gives property "a" different schemas in branch 2 and before it"#),
        (#"{"allOf":[{"properties":{"a":{"type":"string"}}}],"properties":{"a":{"type":"number"}}}"#,
         #"allOf gives property "a" different schemas in the schema beside it and before it"#),
        (#"{"allOf":[{"type":"string"}]}"#, #"allOf merges object properties, but branch 1 has type "string""#),
        (#"{"type":"array","allOf":[{"properties":{}}]}"#, #"allOf merges object properties, but the schema beside it has type "array""#),
        (#"{"allOf":[{"properties":{"a":{}},"additionalProperties":false},{"properties":{"b":{}}}]}"#,
         "allOf merges object properties, but branch 1 uses additionalProperties, which the merged object cannot express"),
        (#"{"allOf":[{"enum":[{}]}]}"#, "allOf merges object properties, but branch 1 uses enum, which the merged object cannot express"),
        (#"{"allOf":[{"maxLength":3}]}"#, "allOf merges object properties, but branch 1 uses maxLength, which the merged object cannot express"),
        (#"{"allOf":[{"oneOf":[{"const":1}]}]}"#, "allOf merges object properties, but branch 1 uses oneOf, which the merged object cannot express"),
        (#"{"allOf":[{"allOf":[{}]}]}"#, "allOf branch 1 holds an allOf of its own, which is not merged"),
        (#"{"allOf":[false]}"#, "allOf branch 1 is false, not an object schema"),
        (#"{"allOf":[{"required":"a"}]}"#, "allOf merges required names, but the required of branch 1 is not a list"),
        (##"{"allOf":[{"$ref":"#/$defs/Nowhere"}]}"##, ##"allOf branch 1: $ref "#/$defs/Nowhere" cannot be followed"##),
    ])
    func aConflictSaysWhy(schema: String, reason: String) throws {
        let field = try FormFixture.field(schema)
        #expect(field.widget == .json)
        #expect(field.children == .none)
        #expect(field.fallbackReason == reason)
    }

    @Test func anAllOfThatLeadsBackToItselfIsACycle() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/A"}"##, defs: ##"{"A":{"allOf":[{"properties":{"next":{"$ref":"#/$defs/A"}}}]}}"##)
        #expect(field.widget == .group)
        #expect(field.children.fields.first?.fallbackReason == ##"$ref "#/$defs/A" contains itself"##)
        let direct = try FormFixture.field(##"{"$ref":"#/$defs/A"}"##, defs: ##"{"A":{"allOf":[{"$ref":"#/$defs/A"}]}}"##)
        #expect(direct.fallbackReason == ##"allOf branch 1: $ref "#/$defs/A" contains itself"##)
    }

    @Test func compatibilityReadsTheMergedFields() throws {
        let old = ##"{"type":"object","properties":{"x":{"allOf":[{"properties":{"a":{"type":"string"}}}]}}}"##
        let new = ##"{"type":"object","properties":{"x":{"allOf":[{"properties":{"b":{"type":"string"}}}]}}}"##
        let problems = try Compatibility.problems(from: SchemaRules.readStored(old), oldVersion: 1, to: SchemaRules.readStored(new))
        #expect(problems.map(\.path) == ["content-state.x.a"])
        #expect(problems.map(\.kind) == [.removed])
    }

    /// The generated schemas reach what they are meant to test: choices, merged `allOf`s and
    /// `allOf`s that conflict, each in many of the 500 schemas `FormDifferentialTests` compares with the reference form.
    @Test func generatedSchemasReachChoicesAndMerges() throws {
        var (choices, merged, conflicts, checked) = (0, 0, 0, 0)
        for seed in 0..<500 {
            var generator = TrickySchemaGenerator(seed: UInt64(seed))
            let document = try SchemaRules.readStored(generator.schema())
            checked += 1
            var describer = FieldDescriber(document: document)
            _ = describer.sectionUses(of: document.contentProperties, required: [])
            if describer.mergedAllOfs > 0 { merged += 1 }
            let fields = Self.allFields(FormBuilder.form(for: document).content.fields)
            if fields.contains(where: { $0.widget == .choice }) { choices += 1 }
            if fields.contains(where: { $0.fallbackReason?.hasBytePrefix("allOf") == true }) { conflicts += 1 }
        }
        #expect(checked == 500)
        #expect(choices >= 25, "\(choices) schemas with a choice")
        #expect(merged >= 25, "\(merged) schemas with a merged allOf")
        #expect(conflicts >= 25, "\(conflicts) schemas with an allOf that does not merge")
    }

    private static func allFields(_ fields: [FormField]) -> [FormField] {
        fields.flatMap { field in
            [field] + allFields(field.children.fields) + (field.children.item.map { allFields([$0]) } ?? [])
                + field.children.cases.flatMap { allFields($0.fields) }
        }
    }
}
