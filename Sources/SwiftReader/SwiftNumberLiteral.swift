/// Converts Swift number literals to JSON number lexemes, exactly (no trip through `Double`),
/// so a `default` or enum raw value reads as the author wrote it. Swift allows `_` separators,
/// leading zeros and other radixes; JSON allows none of them.
enum SwiftNumberLiteral {
    /// `1_000` → `1000`, `0x1F` → `31`, `007` → `7`; nil when a non-decimal literal exceeds 64 bits.
    static func integer(_ literal: String, negative: Bool) -> String? {
        let digits = literal.filter { $0 != "_" }
        let magnitude: String
        if let radix = radix(of: digits) {
            guard let value = UInt64(digits.dropFirst(2), radix: radix) else { return nil }
            magnitude = String(value)
        } else {
            magnitude = withoutLeadingZeros(Substring(digits))
        }
        return negative && magnitude != "0" ? "-" + magnitude : magnitude
    }

    /// `1_000.50` → `1000.50`, `01.5e3` → `1.5e3`; nil for hexadecimal floats, which JSON cannot spell.
    static func float(_ literal: String, negative: Bool) -> String? {
        let text = literal.filter { $0 != "_" }
        guard radix(of: text) == nil else { return nil }
        let integerEnd = text.firstIndex { $0 == "." || $0 == "e" || $0 == "E" } ?? text.endIndex
        let lexeme = withoutLeadingZeros(text[..<integerEnd]) + text[integerEnd...]
        return negative ? "-" + lexeme : lexeme
    }

    private static func radix(of literal: String) -> Int? {
        switch literal.prefix(2) {
        case "0x": 16
        case "0o": 8
        case "0b": 2
        default: nil
        }
    }

    private static func withoutLeadingZeros(_ digits: Substring) -> String {
        let trimmed = digits.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
