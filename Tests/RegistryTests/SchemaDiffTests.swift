import Registry
import Testing

/// Field-level diffs, one case per field property, each marked breaking exactly when the
/// compatibility check reports a problem for it.
@Suite struct SchemaDiffTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let old: String
        let new: String
        /// (path, change, property, breaking) of every change, in order.
        let expected: [Expected]
        var description: String { name }
    }

    struct Expected: Equatable, Sendable, CustomStringConvertible {
        let path: String
        let change: String
        var property: String? = nil
        let breaking: Bool
        var description: String { "\(path) \(change)\(property.map { "(\($0))" } ?? "") \(breaking ? "breaking" : "safe")" }
    }

    static func content(_ properties: String) -> String { #"{"type":"object","properties":\#(properties)}"# }
    static func attributes(_ properties: String, required: String = "[]") -> String {
        #"{"type":"object","attributes":{"properties":\#(properties),"required":\#(required)}}"#
    }

    static let cases: [Case] = [
        Case(
            name: "added field", old: content(#"{"gate":{"type":"string"}}"#),
            new: content(#"{"gate":{"type":"string"},"terminal":{"type":"string"}}"#),
            expected: [Expected(path: "content-state.terminal", change: "added", breaking: false)]),
        Case(
            name: "removed field", old: content(#"{"gate":{"type":"string"},"terminal":{"type":"string"}}"#),
            new: content(#"{"gate":{"type":"string"}}"#),
            expected: [Expected(path: "content-state.terminal", change: "removed", breaking: true)]),
        Case(
            name: "type changed", old: content(#"{"gate":{"type":"string"}}"#), new: content(#"{"gate":{"type":"integer"}}"#),
            expected: [Expected(path: "content-state.gate", change: "type", breaking: true)]),
        Case(
            name: "number narrowed to integer", old: content(#"{"score":{"type":"number"}}"#),
            new: content(#"{"score":{"type":"integer"}}"#),
            expected: [Expected(path: "content-state.score", change: "type", breaking: false)]),
        Case(
            name: "required added", old: attributes(#"{"flight":{"type":"string"}}"#),
            new: attributes(#"{"flight":{"type":"string"}}"#, required: #"["flight"]"#),
            expected: [Expected(path: "attributes.flight", change: "required", breaking: false)]),
        Case(
            name: "became nullable", old: content(#"{"gate":{"type":"string"}}"#),
            new: content(#"{"gate":{"type":["string","null"]}}"#),
            expected: [Expected(path: "content-state.gate", change: "nullable", breaking: true)]),
        Case(
            name: "no longer nullable", old: content(#"{"gate":{"type":["string","null"]}}"#),
            new: content(#"{"gate":{"type":"string"}}"#),
            expected: [Expected(path: "content-state.gate", change: "nullable", breaking: false)]),
        Case(
            name: "enum value added", old: content(#"{"status":{"type":"string","enum":["on_time","late"]}}"#),
            new: content(#"{"status":{"type":"string","enum":["on_time","late","gone"]}}"#),
            expected: [Expected(path: "content-state.status", change: "enum_values", breaking: true)]),
        Case(
            name: "enum value removed", old: content(#"{"status":{"type":"string","enum":["on_time","late"]}}"#),
            new: content(#"{"status":{"type":"string","enum":["on_time"]}}"#),
            expected: [Expected(path: "content-state.status", change: "enum_values", breaking: false)]),
        Case(
            name: "constraint changed", old: content(#"{"gate":{"type":"string","maxLength":4}}"#),
            new: content(#"{"gate":{"type":"string","maxLength":8,"minLength":1}}"#),
            expected: [
                Expected(path: "content-state.gate", change: "constraint", property: "max_length", breaking: false),
                Expected(path: "content-state.gate", change: "constraint", property: "min_length", breaking: false),
            ]),
        Case(
            name: "format changed", old: content(#"{"link":{"type":"string"}}"#),
            new: content(#"{"link":{"type":"string","format":"uri"}}"#),
            expected: [Expected(path: "content-state.link", change: "format", breaking: false)]),
        Case(
            name: "date encoding changed", old: content(#"{"eta":{"type":"string","format":"date-time"}}"#),
            new: content(#"{"eta":{"type":"number","format":"date-time","x-swift-type":"Date"}}"#),
            expected: [Expected(path: "content-state.eta", change: "type", breaking: true)]),
        Case(
            name: "date encoding added on a number", old: content(#"{"eta":{"type":"number"}}"#),
            new: content(#"{"eta":{"type":"number","x-swift-type":"Date"}}"#),
            expected: [Expected(path: "content-state.eta", change: "encoding", breaking: false)]),
        Case(
            name: "nested field in a group",
            old: content(#"{"terminal":{"type":"object","properties":{"gate":{"type":"string"}}}}"#),
            new: content(#"{"terminal":{"type":"object","properties":{"gate":{"type":"integer"},"hall":{"type":"string"}}}}"#),
            expected: [
                Expected(path: "content-state.terminal.gate", change: "type", breaking: true),
                Expected(path: "content-state.terminal.hall", change: "added", breaking: false),
            ]),
        Case(
            name: "field of a list item",
            old: content(#"{"legs":{"type":"array","items":{"type":"object","properties":{"gate":{"type":"string"}}}}}"#),
            new: content(#"{"legs":{"type":"array","items":{"type":"object","properties":{}}}}"#),
            expected: [Expected(path: "content-state.legs[].gate", change: "removed", breaking: true)]),
        Case(
            name: "reordered keys are no change", old: content(#"{"a":{"type":"string"},"b":{"type":"string"}}"#),
            new: content(#"{"b":{"type":"string"},"a":{"type":"string"}}"#), expected: []),
    ]

    @Test(arguments: cases) func eachPropertyChangeIsReportedAndJudgedByTheCompatibilityCheck(_ testCase: Case) throws {
        let diff = SchemaDiff(from: try SchemaRules.readStored(testCase.old), oldVersion: 1, to: try SchemaRules.readStored(testCase.new))
        let found = diff.changes.map {
            Expected(path: $0.path, change: $0.kind.rawValue, property: $0.property, breaking: $0.isBreaking)
        }
        #expect(found == testCase.expected)
        // The diff's verdict is the compatibility check's: every problem belongs to a change.
        let claimed = diff.changes.flatMap(\.problems)
        #expect(claimed.count == diff.compatibility.problems.count)
    }

    @Test func everyKindOfChangeHasACase() {
        let covered = Set(Self.cases.flatMap { $0.expected.map(\.change) })
        #expect(covered == Set(FieldChange.Kind.allCases.map(\.rawValue)), "\(covered)")
        #expect(Self.cases.count >= 16)
    }

    @Test func changesCarryOldAndNewValues() throws {
        let diff = SchemaDiff(
            from: try SchemaRules.readStored(Self.content(#"{"status":{"type":"string","enum":["a"]}}"#)), oldVersion: 4,
            to: try SchemaRules.readStored(Self.content(#"{"status":{"type":"string","enum":["a","b"]}}"#)))
        let change = try #require(diff.changes.first)
        #expect(change.jsonValue["old"] == .array(["a"]))
        #expect(change.jsonValue["new"] == .array(["a", "b"]))
        #expect(change.jsonValue["breaking"] == .bool(true))
        #expect(change.problems.first?.version == 4)
        #expect(change.jsonValue["reasons"]?.arrayValue?.count == 1)
    }
}
