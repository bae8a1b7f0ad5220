import Foundation
import Registry
import SwiftReader
import TestSupport
import Testing

/// Lexical corners: nothing inside a comment or string literal may end a body early or start a
/// declaration, and literal values used as defaults decode as Swift defines them. The tricky
/// literals live in `Fixtures/Swift/LexicalCorners.swift`, where they are real Swift.
@Suite struct SwiftSchemaReaderTokenizerTests {
    let properties: JSONObject

    init() throws {
        let source = try String(contentsOf: TestPaths.fixture("Swift/LexicalCorners.swift"), encoding: .utf8)
        let schema = try SwiftSchemaReader.schema(fromSwiftSource: source, typeName: "LexicalCornersAttributes")
        properties = try #require(schema.objectValue?["properties"]?.objectValue)
    }

    @Test func bracesQuotesAndDeclarationsInsideLiteralsAndCommentsAreNotCode() {
        #expect(properties.keys == ["gate", "text", "pattern", "escapes", "interpolated", "default"])
    }

    @Test func multiLineStringDefaultLosesTheClosingIndentationAndJoinsEscapedLineBreaks() {
        #expect(properties["text"]?.objectValue?["default"] == .string("Line one\n  indented joined"))
    }

    @Test func rawStringDefaultKeepsBackslashesUnlessHashed() {
        #expect(properties["pattern"]?.objectValue?["default"] == .string("\\d+\t"))
    }

    @Test func escapesInStringDefaultsAreDecoded() {
        #expect(properties["escapes"]?.objectValue?["default"] == .string("tab\tquote\"smile\u{1F600}"))
    }

    @Test func interpolatedStringHasNoDefault() {
        #expect(properties["interpolated"] == ["type": "string"])
    }

    @Test func backtickedNamesAreOrdinaryProperties() {
        #expect(properties["default"] == ["type": "string"])
    }

    @Test func joinedClosingAngleBracketsAreSplit() throws {
        let properties = try contentProperties("""
            var a: [String: Array<Array<Int>>]
            var b: Optional<Array<Int>>?
            var c: Array<Int?>
            """)
        #expect(properties == #"{"a":{"type":"object","additionalProperties":{"type":"array","items":{"type":"array","items":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}}}},"b":{"type":["array","null"],"items":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},"c":{"type":"array","items":{"type":["integer","null"],"minimum":-9223372036854775808,"maximum":9223372036854775807}}}"#)
    }

    @Test func initialValueEndsAtTheLineBreakUnlessAnOperatorContinuesIt() throws {
        let properties = try contentProperties("""
            var a: Int = 1
                + 2
            var b: Int = 3
            var c: Int = 4 *
                5
            var d = Status.open
            var e: Int = 6
            """, declarations: "enum Status: String, Codable { case open }")
        #expect(properties == #"{"a":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"b":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"default":3},"c":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"d":{"type":"string","enum":["open"],"default":"open"},"e":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"default":6}}"#)
    }

    @Test func widgetCodeAndMacrosInTheSameFileAreSkipped() throws {
        let source = #"""
            import SwiftUI
            struct A: ActivityAttributes {
                struct ContentState: Codable, Hashable { var gate: String }
            }
            struct AWidget: Widget {
                var body: some WidgetConfiguration {
                    ActivityConfiguration(for: A.self) { context in
                        Text("Gate \(context.state.gate)")
                    } dynamicIsland: { _ in DynamicIsland { EmptyView() } compactLeading: { Text("}") } }
                }
            }
            #Preview("A", as: .content, using: A()) {
                AWidget()
            } contentStates: {
                A.ContentState(gate: "B1")
            }
            """#
        #expect(try schemaText(source, "A", part: "properties") == #"{"gate":{"type":"string"}}"#)
    }
}
