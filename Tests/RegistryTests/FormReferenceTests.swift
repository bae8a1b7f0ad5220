import Registry
import Testing

/// Local `$ref`s are followed; references that cannot be followed, or never end, fall back to a
/// raw JSON editor without crashing.
@Suite struct FormReferenceTests {
    private func isRawEditor(_ field: FormField) -> Bool {
        field.type == .any && field.widget == .json && field.children == .none
    }

    @Test func defsReferenceIsResolved() throws {
        let field = try FormFixture.field(##"{"$ref":"#/$defs/Gate"}"##, defs: ##"{"Gate":{"type":"string","format":"uri"}}"##)
        #expect((field.type, field.widget) == (.string, .url))
    }

    @Test func definitionsReferenceIsResolved() throws {
        let form = try FormFixture.form(
            ##"{"type":"object","properties":{"x":{"$ref":"#/definitions/Score"}},"definitions":{"Score":{"type":"integer"}}}"##)
        #expect((form.content.fields[0].type, form.content.fields[0].widget) == (.integer, .number))
    }

    @Test func referenceToAReferenceIsResolved() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/A"}"##, defs: ##"{"A":{"$ref":"#/$defs/B","title":"From A"},"B":{"type":"boolean","title":"From B"}}"##)
        #expect((field.type, field.widget, field.label) == (.boolean, .toggle, "From A"))
    }

    @Test func keywordsBesideAReferenceWinOverTheReferencedSchema() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/Gate","title":"Departure gate","description":"Where to board"}"##,
            defs: ##"{"Gate":{"type":"string","title":"Gate","description":"A gate"}}"##)
        #expect(field.label == "Departure gate")
        #expect(field.description == "Where to board")
        #expect(field.type == .string)
    }

    @Test func referencedObjectBecomesAGroupWithItsOwnRequiredList() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/Airport"}"##,
            defs: ##"{"Airport":{"type":"object","properties":{"code":{"type":"string"},"name":{"type":"string"}},"required":["code"]}}"##)
        #expect(field.widget == .group)
        #expect(field.children.fields.map(\.path) == ["content-state.x.code", "content-state.x.name"])
        #expect(field.children.fields.map(\.isRequired) == [true, false])
    }

    @Test func sameDefinitionUsedTwiceIsExpandedBothTimes() throws {
        let form = try FormFixture.form(
            """
            {"type":"object","properties":{"from":{"$ref":"#/$defs/Airport"},"to":{"$ref":"#/$defs/Airport"}},
             "$defs":{"Airport":{"type":"object","properties":{"code":{"type":"string"}}}}}
            """)
        #expect(form.content.fields.map(\.widget) == [.group, .group])
        #expect(form.content.fields[1].children.fields[0].path == "content-state.to.code")
    }

    @Test func unresolvableReferenceIsAny() throws {
        let field = try FormFixture.field(##"{"$ref":"#/$defs/Missing","title":"Gate"}"##, defs: "{}")
        #expect(isRawEditor(field))
        #expect(field.label == "Gate")
    }

    @Test func remoteReferenceIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(##"{"$ref":"https://example.com/gate.json"}"##)))
    }

    @Test func nonStringReferenceIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(##"{"$ref":5,"type":"string"}"##)))
    }

    @Test func referenceToANonSchemaIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(##"{"$ref":"#/$defs/N"}"##, defs: ##"{"N":3}"##)))
    }

    @Test func selfReferenceIsAny() throws {
        #expect(isRawEditor(try FormFixture.field(##"{"$ref":"#/$defs/A"}"##, defs: ##"{"A":{"$ref":"#/$defs/A"}}"##)))
    }

    @Test func mutualReferenceIsAny() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/A"}"##, defs: ##"{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}"##)
        #expect(isRawEditor(field))
    }

    @Test func recursiveObjectIsExpandedOnceThenAny() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/Node"}"##,
            defs: ##"{"Node":{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#/$defs/Node"}}}}"##)
        #expect(field.widget == .group)
        #expect(field.children.fields[0].widget == .text)
        #expect(isRawEditor(field.children.fields[1]))
        #expect(field.children.fields[1].path == "content-state.x.child")
    }

    @Test func deepMutualCycleThroughObjectsAndArraysIsAny() throws {
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/Trip"}"##,
            defs: """
                {"Trip":{"type":"object","properties":{"legs":{"type":"array","items":{"$ref":"#/$defs/Leg"}}}},
                 "Leg":{"type":"object","properties":{"stop":{"type":"object","properties":{"trip":{"$ref":"#/$defs/Trip"}}}}}}
                """)
        let leg = try #require(field.children.fields[0].children.item)
        #expect(leg.path == "content-state.x.legs[]")
        #expect(leg.widget == .group)
        let trip = leg.children.fields[0].children.fields[0]
        #expect(trip.path == "content-state.x.legs[].stop.trip")
        #expect(isRawEditor(trip))
    }

    @Test func rootReferenceExpandsTheContentOnceThenStops() throws {
        let form = try FormFixture.form(##"{"type":"object","properties":{"again":{"$ref":"#"}}}"##)
        let again = form.content.fields[0]
        #expect(again.widget == .group)
        #expect(isRawEditor(again.children.fields[0]))
    }

    @Test func nestingBeyondSixtyFourLevelsThroughDistinctReferencesIsAny() throws {
        let defs = (0..<80).map { ##""D\##($0)":{"type":"object","properties":{"next":{"$ref":"#/$defs/D\##($0 + 1)"}}}"## }
        let field = try FormFixture.field(##"{"$ref":"#/$defs/D0"}"##, defs: "{" + defs.joined(separator: ",") + "}")
        var depth = 1
        var current = field
        while let next = current.children.fields.first {
            depth += 1
            current = next
        }
        #expect(depth == 65)
        #expect(isRawEditor(current))
    }

    @Test func definitionsThatDoubleAtEveryLevelStayBounded() throws {
        // 2^40 fields if every reference were expanded.
        let defs = (0..<40).map {
            ##""D\##($0)":{"type":"object","properties":{"a":{"$ref":"#/$defs/D\##($0 + 1)"},"b":{"$ref":"#/$defs/D\##($0 + 1)"}}}"##
        }
        let field = try FormFixture.field(
            ##"{"$ref":"#/$defs/D0"}"##, defs: "{" + defs.joined(separator: ",") + ##","D40":{"type":"string"}}"##)
        func count(_ field: FormField) -> Int {
            1 + field.children.fields.map(count).reduce(0, +) + (field.children.item.map(count) ?? 0)
        }
        #expect(count(field) < 30_000)
        #expect(field.widget == .group)
    }
}
