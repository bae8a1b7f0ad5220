@testable import Registry
import Testing

/// An enum with associated values, as `schema-from-swift` writes Swift's synthesized `Codable`
/// form `{"case": {…}}`, is a `choice`: pick a case, then fill its fields. Only that exact
/// shape is a choice; every near miss stays a raw editor with a reason.
@Suite struct FormEnumCaseTests {
    /// `enum Phase { case boarding(gate: String, closesIn: Int?), departed }` as the reader writes it.
    static let phase = #"""
        {"oneOf":[
          {"type":"object","properties":{"boarding":{"type":"object","properties":{"gate":{"type":"string"},"closesIn":{"type":"integer"}},"required":["gate"]}},"required":["boarding"],"additionalProperties":false},
          {"type":"object","properties":{"departed":{"type":"object"}},"required":["departed"],"additionalProperties":false}
        ]}
        """#

    static func branch(_ key: String, _ payload: String = #"{"type":"object"}"#) -> String {
        #"{"type":"object","properties":{"\#(key)":\#(payload)},"required":["\#(key)"],"additionalProperties":false}"#
    }

    @Test func anEnumWithAssociatedValuesIsAChoiceOfItsCases() throws {
        let field = try FormFixture.field(Self.phase)
        #expect(field.widget == .choice)
        #expect(field.type == .object)
        #expect(field.fallbackReason == nil)
        let cases = field.children.cases
        #expect(cases.map(\.key) == ["boarding", "departed"])
        #expect(cases.map(\.label) == ["Boarding", "Departed"])
        #expect(cases[0].fields.map(\.path) == ["content-state.x.boarding.gate", "content-state.x.boarding.closesIn"])
        #expect(cases[0].fields.map(\.isRequired) == [true, false])
        #expect(cases[0].fields.map(\.widget) == [.text, .number])
        #expect(cases[1].fields.isEmpty)
    }

    @Test func theChoiceIsWrittenWithItsCases() throws {
        let json = try FormFixture.json(Self.phase)
        #expect(json.hasPrefix(#"{"name":"x","path":"content-state.x","label":"X","type":"object","widget":"choice","required":false,"cases":[{"key":"boarding","label":"Boarding","fields":[{"name":"gate","path":"content-state.x.boarding.gate""#))
        #expect(json.hasSuffix(#"{"key":"departed","label":"Departed","fields":[]}]}"#))
    }

    @Test func aBranchTitleNamesTheCase() throws {
        let titled = #"{"title":"Gone","type":"object","properties":{"departed":{"type":"object"}},"required":["departed"],"additionalProperties":false}"#
        let field = try FormFixture.field(#"{"oneOf":[\#(titled)]}"#)
        #expect(field.children.cases.map(\.label) == ["Gone"])
    }

    @Test func anyOfOfCasesIsAChoiceToo() throws {
        let field = try FormFixture.field(#"{"anyOf":[\#(Self.branch("a")),\#(Self.branch("b"))]}"#)
        #expect(field.widget == .choice)
    }

    @Test func theSwiftReadersOwnOutputIsAChoice() throws {
        // `type: object` beside the alternatives changes nothing.
        let field = try FormFixture.field(#"{"type":"object","oneOf":[\#(Self.branch("on"))]}"#)
        #expect(field.widget == .choice)
    }

    /// Each near miss would let a value through that is not one case key holding an object, or
    /// two branches accept the same value: none is a choice.
    @Test(arguments: [
        // no "type": "object": a string is valid
        #"{"properties":{"a":{"type":"object"}},"required":["a"],"additionalProperties":false}"#,
        // type spelled another way
        #"{"type":["object"],"properties":{"a":{"type":"object"}},"required":["a"],"additionalProperties":false}"#,
        // other keys allowed beside the case key
        #"{"type":"object","properties":{"a":{"type":"object"}},"required":["a"]}"#,
        #"{"type":"object","properties":{"a":{"type":"object"}},"required":["a"],"additionalProperties":true}"#,
        // the case key not required: {} is valid
        #"{"type":"object","properties":{"a":{"type":"object"}},"additionalProperties":false}"#,
        // required names another key
        #"{"type":"object","properties":{"a":{"type":"object"}},"required":["b"],"additionalProperties":false}"#,
        // two properties
        #"{"type":"object","properties":{"a":{"type":"object"},"c":{"type":"object"}},"required":["a"],"additionalProperties":false}"#,
        // two required names
        #"{"type":"object","properties":{"a":{"type":"object"}},"required":["a","a"],"additionalProperties":false}"#,
        // a keyword beside that constrains more
        #"{"type":"object","properties":{"a":{"type":"object"}},"required":["a"],"additionalProperties":false,"minProperties":1}"#,
        // the required key canonically equivalent, not the same bytes
        #"{"type":"object","properties":{"caf\u00e9":{"type":"object"}},"required":["cafe\u0301"],"additionalProperties":false}"#,
    ])
    func aNearMissIsNotAChoice(branch: String) throws {
        let field = try FormFixture.field(#"{"oneOf":[\#(branch),\#(Self.branch("z"))]}"#)
        #expect(field.widget == .json)
        #expect(field.children == .none)
        #expect(field.fallbackReason == "oneOf makes the value's shape depend on several schemas, which one editor cannot show")
    }

    @Test func twoCasesWithTheSameKeyAreNotAChoice() throws {
        let field = try FormFixture.field(#"{"oneOf":[\#(Self.branch("a")),\#(Self.branch("a"))]}"#)
        #expect(field.widget == .json)
    }

    @Test func keysThatDifferOnlyInNormalisationAreTwoCases() throws {
        let field = try FormFixture.field(#"{"oneOf":[\#(Self.branch("caf\u{E9}")),\#(Self.branch("cafe\u{301}"))]}"#)
        #expect(field.widget == .choice)
        #expect(field.children.cases.map { Array($0.key.utf8) } == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
    }

    @Test func aCaseThatHoldsNoObjectMakesTheChoiceARawEditor() throws {
        let field = try FormFixture.field(#"{"oneOf":[\#(Self.branch("a")),\#(Self.branch("n", #"{"type":"integer"}"#))]}"#)
        #expect(field.widget == .json)
        #expect(field.fallbackReason == #"case "n" of oneOf holds integer, not an object of fields"#)
        let anything = try FormFixture.field(#"{"oneOf":[\#(Self.branch("n", "{}"))]}"#)
        #expect(anything.fallbackReason == #"case "n" of oneOf holds any value, not an object of fields"#)
        let inner = try FormFixture.field(#"{"oneOf":[\#(Self.branch("n", #"{"type":"object","not":{}}"#))]}"#)
        #expect(inner.fallbackReason?.hasPrefix(#"case "n" of oneOf cannot be shown as fields: not makes"#) == true)
    }

    @Test func somethingBesideTheCasesMakesARawEditor() throws {
        let field = try FormFixture.field(#"{"type":"string","oneOf":[\#(Self.branch("a"))]}"#)
        #expect(field.fallbackReason == #"oneOf chooses among enum cases, which type "string" beside it would change"#)
        let withProperties = try FormFixture.field(#"{"properties":{"q":{}},"oneOf":[\#(Self.branch("a"))]}"#)
        #expect(withProperties.fallbackReason == "oneOf chooses among enum cases, which properties beside it would change")
    }

    @Test func aCaseFollowsReferencesAndReusesTheirFields() throws {
        let gate = #"{"type":"object","properties":{"gate":{"type":"string"}}}"#
        let toGate = ##"{"$ref":"#/$defs/G"}"##
        let field = try FormFixture.field(
            #"{"oneOf":[\#(Self.branch("a", toGate)),\#(Self.branch("b", toGate))]}"#,
            defs: #"{"G":\#(gate)}"#)
        #expect(field.children.cases.map { $0.fields.map(\.path) } == [["content-state.x.a.gate"], ["content-state.x.b.gate"]])
    }

    @Test func aCaseThatContainsItselfStopsThere() throws {
        let node = ##"{"type":"object","properties":{"next":{"$ref":"#/$defs/T"}}}"##
        let text = #"{"oneOf":[\#(Self.branch("leaf")),\#(Self.branch("node", node))]}"#
        let field = try FormFixture.field(##"{"$ref":"#/$defs/T"}"##, defs: #"{"T":\#(text)}"#)
        let next = try #require(field.children.cases.last?.fields.first)
        #expect(next.fallbackReason == ##"$ref "#/$defs/T" contains itself"##)
    }

    @Test func anAppKnowsOnlyItsOwnCases() throws {
        let old = #"{"type":"object","properties":{"x":{"oneOf":[\#(Self.branch("a")),\#(Self.branch("b"))]}}}"#
        let removed = #"{"type":"object","properties":{"x":{"oneOf":[\#(Self.branch("a"))]}}}"#
        let added = #"{"type":"object","properties":{"x":{"oneOf":[\#(Self.branch("a")),\#(Self.branch("b")),\#(Self.branch("c"))]}}}"#
        #expect(try Compatibility.problems(from: SchemaRules.readStored(old), oldVersion: 1, to: SchemaRules.readStored(removed)).isEmpty)
        let problems = try Compatibility.problems(from: SchemaRules.readStored(old), oldVersion: 1, to: SchemaRules.readStored(added))
        #expect(problems.map(\.kind) == [.enumValueAdded])
        #expect(problems.first?.message.contains(#"allows case "c""#) == true)
    }

    @Test func aCaseFieldTheAppNeedsIsComparedAsAField() throws {
        let old = #"{"type":"object","properties":{"x":{"oneOf":[\#(Self.branch("a", #"{"type":"object","properties":{"n":{"type":"integer"}}}"#))]}}}"#
        let new = #"{"type":"object","properties":{"x":{"oneOf":[\#(Self.branch("a", #"{"type":"object","properties":{"n":{"type":"string"}}}"#))]}}}"#
        let problems = try Compatibility.problems(from: SchemaRules.readStored(old), oldVersion: 1, to: SchemaRules.readStored(new))
        #expect(problems.map(\.path) == ["content-state.x.a.n"])
        #expect(problems.map(\.kind) == [.typeChanged])
    }
}
