import Registry
import SwiftReader
import Testing

/// Every construct the reader cannot follow is an error naming the line (and what is wrong),
/// never a silently wrong schema.
@Suite struct SwiftSchemaReaderErrorTests {
    /// The error for `source`, or nil when it yields a schema.
    private func error(_ source: String, _ typeName: String = "A") -> SwiftSchemaError? {
        do {
            _ = try SwiftSchemaReader.schema(fromSwiftSource: source, typeName: typeName)
            return nil
        } catch {
            return error
        }
    }

    /// The error for a ContentState with `body` (which starts on line 4), with `declarations`
    /// after ContentState.
    private func contentError(_ body: String, declarations: String = "") -> SwiftSchemaError? {
        error(attributesSource(contentState: body, declarations: declarations))
    }

    @Test func setIsUnsupportedAndTheMessageNamesLineTypeAndProperty() {
        let failure = contentError("var gate: String\nvar tags: Set<String>")
        #expect(failure?.description == "line 5: unsupported type 'Set<String>' for property 'tags'")
        #expect(failure?.column == 11)
    }

    @Test func unsupportedTypeInsideAnOptionalNamesTheInnerType() {
        #expect(contentError("var tags: Set<String>?")?.description == "line 4: unsupported type 'Set<String>' for property 'tags'")
    }

    @Test func tupleIsUnsupported() {
        #expect(contentError("var point: (x: Int, y: Int)")?.description == "line 4: unsupported type '(x: Int, y: Int)' for property 'point'")
    }

    @Test func closureIsUnsupported() {
        #expect(contentError("var gate: String\n\nvar onTap: () -> Void")?.description == "line 6: unsupported type '() -> Void' for property 'onTap'")
    }

    @Test func typeNotDeclaredInTheFileIsUnsupported() {
        #expect(contentError("var location: CLLocationCoordinate2D")?.description
            == "line 4: unsupported type 'CLLocationCoordinate2D' for property 'location'")
    }

    @Test func unsupportedTypeInANestedStructPointsAtTheNestedDeclaration() {
        let source = """
            struct A: ActivityAttributes {
                struct ContentState: Codable, Hashable { var leg: Leg }
                struct Leg: Codable, Hashable {
                    var stops: Set<String>
                }
            }
            """
        #expect(error(source)?.description == "line 4: unsupported type 'Set<String>' for property 'stops'")
    }

    @Test func propertyWrapperIsUnsupported() {
        #expect(contentError("@Clamped var level: Int")?.description == "line 4: unsupported property wrapper '@Clamped' on property 'level'")
    }

    @Test func lazyPropertyIsUnsupported() {
        #expect(contentError("lazy var level: Int = 0")?.description == "line 4: unsupported lazy property 'level'")
    }

    @Test func customInitFromDecoderIsRejected() {
        let failure = contentError("""
            var gate: String
            init(from decoder: Decoder) throws {
                gate = try decoder.singleValueContainer().decode(String.self)
            }
            """)
        #expect(failure?.line == 5)
        #expect(failure?.message == "'A.ContentState' has a hand-written init(from:); only synthesized Codable can be turned into a schema")
    }

    @Test func customEncodeInAnExtensionIsRejected() {
        let source = """
            struct A: ActivityAttributes {
                struct ContentState: Codable, Hashable { var gate: String }
            }
            extension A.ContentState {
                func encode(to encoder: any Encoder) throws {}
            }
            """
        #expect(error(source)?.line == 5)
        #expect(error(source)?.message.contains("hand-written encode(to:)") == true)
    }

    @Test func initWithFromLabelForAnotherPurposeIsFine() {
        #expect(contentError("var gate: String\ninit(from other: String) { gate = other }") == nil)
    }

    @Test func missingActivityAttributesConformanceIsRejected() {
        let source = "import Foundation\n\nstruct A: Codable {\n    struct ContentState: Codable, Hashable {}\n}"
        #expect(error(source)?.description == "line 3: 'A' does not conform to ActivityAttributes")
    }

    @Test func unknownTypeNameIsReportedAtTheStart() {
        #expect(error("struct B {}", "A")?.description == "line 1: no type named 'A' in the source")
    }

    @Test func ambiguousBareTypeNameAsksForTheFullName() {
        let source = "enum X { struct A {} }\nenum Y { struct A {} }"
        #expect(error(source)?.message == "more than one type is named 'A'; give its full name, such as 'X.A'")
    }

    @Test func attributesTypeMustBeAStruct() {
        #expect(error("\nenum A: ActivityAttributes {}")?.description
            == "line 2: 'A' must be a non-generic struct to be an ActivityAttributes type")
    }

    @Test func missingContentStateIsRejected() {
        #expect(error("struct A: ActivityAttributes {\n    var flight: String\n}")?.description
            == "line 1: 'A' declares no nested struct ContentState")
    }

    @Test func contentStateMustBeAStruct() {
        #expect(error("struct A: ActivityAttributes {\n    enum ContentState: String, Codable { case a }\n}")?.message
            == "ContentState of 'A' must be a struct")
    }

    @Test func enumWithoutCasesIsRejected() {
        let failure = contentError("var phase: Phase", declarations: "enum Phase: Codable {}")
        #expect(failure?.line == 4)
        #expect(failure?.message == "unsupported type 'Phase' for property 'phase': enum 'A.Phase' (line 6) has no cases, so no value decodes")
    }

    @Test func enumRawValueOfTheWrongKindIsRejected() {
        let failure = contentError("var phase: Phase", declarations: "enum Phase: String, Codable {\n    case waiting = 1\n}")
        #expect(failure?.description == "line 7: raw value of case 'waiting' in enum 'A.Phase' must be a string literal")
    }

    @Test func classIsRejected() {
        #expect(contentError("var box: Box", declarations: "final class Box: Codable {}")?.message
            == "unsupported type 'Box' for property 'box': 'Box' is a class; only structs and enums are supported")
    }

    @Test func dictionaryWithNonStringKeysIsRejected() {
        #expect(contentError("var byLap: [Int: Double]")?.description
            == "line 4: unsupported type '[Int: Double]' for property 'byLap': only dictionaries with String keys encode as a JSON object")
    }

    @Test func codingKeysCaseWithoutAPropertyIsRejected() {
        let failure = contentError("var gate: String\nenum CodingKeys: String, CodingKey {\n    case gate, terminal\n}")
        #expect(failure?.description == "line 6: CodingKeys case 'terminal' matches no stored property of 'A.ContentState'")
    }

    @Test func codingKeysRawValueMustBeAString() {
        let failure = contentError("var gate: String\nenum CodingKeys: String, CodingKey {\n    case gate = 1\n}")
        #expect(failure?.description == "line 6: CodingKeys case 'gate' must have a string literal raw value")
    }

    @Test func propertyWithoutTypeOrLiteralValueIsRejected() {
        #expect(contentError("var started = makeStart()")?.description
            == "line 4: property 'started' needs a type annotation: its type cannot be inferred from its initial value")
    }

    @Test func fieldNameInBothContentStateAndAttributesIsRejected() {
        let failure = contentError("var gate: String", declarations: "\n    var gate: String")
        #expect(failure?.description == "line 7: property 'gate' uses the key 'gate', which ContentState also uses; the registry needs each field name once")
    }

    @Test func genericArgumentCountMustMatch() {
        let failure = contentError("var box: Box", declarations: "struct Box<T: Codable>: Codable { var value: T }")
        #expect(failure?.description == "line 4: type 'Box' for property 'box' needs 1 generic argument")
    }

    @Test func typeAliasCycleIsRejected() {
        let failure = contentError("var a: Loop", declarations: "typealias Loop = Again\ntypealias Again = Loop")
        #expect(failure?.message.contains("refers to itself") == true)
    }

    @Test func genericTypeGrowingWithoutEndIsRejected() {
        let failure = contentError("var tree: Tree<Int>", declarations: "struct Tree<T: Codable>: Codable { var kids: [Tree<[T]>] }")
        #expect(failure?.message.hasPrefix("types nest more than 32 levels deep") == true)
        #expect(failure?.line == 6)
    }

    @Test func unterminatedStringLiteralIsRejected() {
        #expect(contentError("var gate: String = \"B22")?.description == "line 4: unterminated string literal")
    }

    @Test func unterminatedBlockCommentIsRejected() {
        #expect(contentError("/* var gate: String")?.description == "line 4: unterminated block comment")
    }

    @Test func invalidEscapeIsRejected() {
        #expect(contentError(#"var gate: String = "B\q""#)?.description == #"line 4: invalid escape '\q' in string literal"#)
    }

    @Test func unclosedBraceIsReportedWhereItOpens() {
        #expect(error("struct A: ActivityAttributes {\n    struct ContentState: Codable {\n}")?.description
            == "line 1: this '{' is never closed")
    }

    @Test func unclosedParenthesisIsReportedWhereItOpens() {
        #expect(contentError("var gate: String\nfunc f() { print(1 }")?.description
            == "line 5: unexpected '}': the '(' on line 5 is not closed")
        #expect(error("struct A { var x: Int { f(")?.description == "line 1: this '(' is never closed")
    }

    @Test func unexpectedStatementIsRejected() {
        #expect(contentError("var gate: String\nprint(gate)")?.description == "line 5: unexpected 'print' in a declaration list")
    }

    @Test func destructuringDeclarationIsRejected() {
        #expect(contentError("var (x, y): (Int, Int)")?.line == 4)
    }
}
