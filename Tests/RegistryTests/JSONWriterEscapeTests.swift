import Registry
import Testing

/// The escaper skips plain text eight bytes at a time: every character that needs an escape,
/// at every position in and around a word, must still be escaped as the one-byte rule says.
@Suite struct JSONWriterEscapeTests {
    /// The escape of one scalar: `"`, `\`, the short control escapes, `\u00XX` for the other
    /// controls and DEL, everything else as it is.
    static func reference(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        case 0..<0x20, 0x7F:
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: return String(scalar)
        }
    }

    @Test func everyCharacterAtEveryPositionOfTwoWordsIsEscapedAsOneByteAtATime() {
        let scalars = (0...0x7F).compactMap(Unicode.Scalar.init) + ["\u{E9}", "\u{20AC}", "\u{1F600}"]
        var checked = 0
        for scalar in scalars {
            for position in 0..<17 {
                let text = String(repeating: "a", count: position) + String(scalar) + String(repeating: "b", count: 16 - position)
                let expected = "\"" + text.unicodeScalars.map(Self.reference).joined() + "\""
                let written = JSONWriter.string(.string(text))
                #expect(written.utf8.elementsEqual(expected.utf8), "U+\(String(scalar.value, radix: 16)) at \(position)")
                #expect(JSONWriter.escapedCount(of: text) == expected.utf8.count - 2)
                checked += 1
            }
        }
        #expect(checked == 131 * 17)
    }

    @Test func runsOfEscapesAndLongPlainTextKeepTheirBytes() {
        let plain = String(repeating: "plain text, no escapes ", count: 50)
        let mixed = plain + "\"\\\n\u{1}\u{7F}" + plain + "\u{1F}"
        let expected = "\"" + mixed.unicodeScalars.map(Self.reference).joined() + "\""
        #expect(JSONWriter.string(.string(mixed)).utf8.elementsEqual(expected.utf8))
        #expect(JSONWriter.string(.string("")) == "\"\"")
    }
}
