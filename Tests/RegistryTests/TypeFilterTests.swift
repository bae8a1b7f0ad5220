import Registry
import Testing

/// The upper end of a prefix range: every name starting with the prefix sorts below it, and
/// nothing else between the prefix and it does (byte order of UTF-8 is scalar order).
@Suite struct TypeFilterTests {
    static let cases: [(prefix: String, bound: String?)] = [
        ("ab", "ac"),
        ("a%", "a&"),
        ("a_", "a`"),
        ("Caf\u{E9}", "Caf\u{EA}"),
        ("x\u{D7FF}", "x\u{E000}"),
        ("a\u{10FFFF}", "b"),
        ("a\u{10FFFF}\u{10FFFF}", "b"),
        ("\u{10FFFF}", nil),
        ("", nil),
    ]

    @Test func theBoundRaisesTheLastScalarThatCanBeRaised() {
        for (prefix, bound) in Self.cases {
            #expect(TypeFilter.upperBound(ofPrefix: prefix).map { Array($0.unicodeScalars) } == bound.map { Array($0.unicodeScalars) },
                    "\(prefix.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func namesWithThePrefixSortBelowTheBoundAndOthersDoNot() throws {
        let names = ["ab", "ab\u{0}", "abz", "ab\u{10FFFF}", "ac", "aa\u{10FFFF}", "a", "b"]
        let bound = try #require(TypeFilter.upperBound(ofPrefix: "ab"))
        for name in names {
            let inRange = !name.utf8.lexicographicallyPrecedes("ab".utf8) && name.utf8.lexicographicallyPrecedes(bound.utf8)
            #expect(inRange == name.utf8.starts(with: "ab".utf8), "\(name)")
        }
    }
}
