import Registry
import Testing

/// An `attributesType` that no Swift type can have gets a warning (never an error); the
/// identifier rules are the Swift lexer's, read scalar by scalar.
@Suite struct SwiftTypeNameTests {
    @Test func identifierPathsAreSwiftTypeNames() {
        for name in [
            "FlightAttributes", "Module.FlightAttributes", "_Private", "A1", "A$b", "Caf\u{E9}", "Cafe\u{301}",
            "\u{65E5}\u{672C}Flight", "\u{1F436}Attributes", "\u{FF26}light", "a\u{B7}b",
        ] {
            #expect(SwiftTypeName.problem(in: name) == nil, "\(name)")
        }
    }

    @Test func otherNamesAreNotAndTheReasonIsNamed() {
        let cases: [(String, String)] = [
            ("Flight Attributes", #"an identifier cannot contain U+0020 " ""#),
            ("Flight-Attributes", #"an identifier cannot contain U+002D "-""#),
            ("1Flight", #"an identifier cannot start with U+0031 "1""#),
            ("$Flight", #"an identifier cannot start with U+0024 "$""#),
            ("\u{2708}Flight", "an identifier cannot start with U+2708 \"\u{2708}\""),
            ("Flight\u{2708}\u{FE0F}", "an identifier cannot contain U+2708 \"\u{2708}\""),
            ("Module.\u{301}Flight", "an identifier cannot start with U+0301 \"\u{301}\""),
            ("A\u{A0}B", "an identifier cannot contain U+00A0 \"\u{A0}\""),
            (".Flight", #"it has an empty identifier before or after a ".""#),
            ("Flight.", #"it has an empty identifier before or after a ".""#),
            ("Module..Flight", #"it has an empty identifier before or after a ".""#),
            ("Flight<Int>", #"an identifier cannot contain U+003C "<""#),
        ]
        for (name, problem) in cases {
            #expect(SwiftTypeName.problem(in: name).map(ExactName.init) == ExactName(problem), "\(name)")
        }
    }

    @Test func theWarningQuotesTheNameAtTheTypeNamesPath() {
        #expect(
            SwiftTypeName.warning(about: "Flight Attributes")
                == SchemaWarning(
                    path: "attributesType",
                    message: #""Flight Attributes" is not a Swift type name (identifiers separated by "."): an identifier cannot contain U+0020 " ""#))
        #expect(SwiftTypeName.warning(about: "FlightAttributes") == nil)
        let long = String(repeating: "a", count: 200) + " "
        #expect(SwiftTypeName.warning(about: long)?.message.contains("(201 bytes)") == true)
    }
}
