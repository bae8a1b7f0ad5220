/// How error messages show a value the client sent (an application code, a type name, a
/// version, a path, a schema key, a method): at most `maxShownBytes` of it, then how long it
/// was, so that a megabyte sent is never a megabyte echoed back, logged or kept.
///
/// Every message that repeats client input goes through here; the cut falls on a Unicode scalar
/// boundary, so the result is always valid text.
public enum ClientText {
    public static let maxShownBytes = 128

    /// As a JSON string literal: `"Café"`, or `"aaaa…"… (1,000,000 bytes)` when longer.
    public static func quoted(_ text: String) -> String {
        let (shown, total) = cut(text)
        let literal = JSONWriter.string(.string(shown))
        return total == nil ? literal : literal + "… (\(grouped(total!)) bytes)"
    }

    /// As it is, for lexemes and names that need no quotes: `12345…(1,000 bytes)` when longer.
    public static func shown(_ text: String) -> String {
        let (shown, total) = cut(text)
        return total == nil ? shown : shown + "… (\(grouped(total!)) bytes)"
    }

    /// The text itself when short enough, else its first scalars and its length in bytes.
    private static func cut(_ text: String) -> (String, Int?) {
        let total = text.utf8.count
        guard total > maxShownBytes else { return (text, nil) }
        var prefix = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard used + width <= maxShownBytes else { break }
            prefix.append(scalar)
            used += width
        }
        return (String(prefix), total)
    }

    /// `1000000` as `1,000,000`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
