/// Whether an `attributesType` can name a Swift type: identifiers separated by `.`
/// (`FlightAttributes`, `Module.FlightAttributes`), each made only of the characters the Swift
/// compiler's lexer takes for an identifier. ActivityKit knows an activity's attributes by their
/// Swift type, so a name no Swift type can have (`Flight Attributes`, `1Flight`,
/// `Flight-Attributes`, `✈Flight`) is almost always a slip. The naming rules still accept it
/// (any 1–256 characters without control characters or `/`); Create and the dry run warn.
///
/// The name is read scalar by scalar, never as Swift characters: a combining mark after a `.`
/// would otherwise join it into one character and hide an identifier that starts with a mark.
public enum SwiftTypeName {
    /// The warning for `attributesType`, path `attributesType`, or nil when it is an identifier
    /// path.
    public static func warning(about attributesType: String) -> SchemaWarning? {
        guard let problem = problem(in: attributesType) else { return nil }
        return SchemaWarning(
            path: "attributesType",
            message: "\(ClientText.quoted(attributesType)) is not a Swift type name (identifiers separated by \".\"): \(problem)")
    }

    /// Why `name` is not a Swift identifier path, as one phrase, or nil when it is one.
    public static func problem(in name: String) -> String? {
        var atStart = true
        for scalar in name.unicodeScalars {
            if scalar == "." {
                if atStart { return "it has an empty identifier before or after a \".\"" }
                atStart = true
            } else if atStart {
                guard SwiftIdentifierScalars.canStart(scalar) else {
                    return "an identifier cannot start with \(described(scalar))"
                }
                atStart = false
            } else if !SwiftIdentifierScalars.canContinue(scalar) {
                return "an identifier cannot contain \(described(scalar))"
            }
        }
        return atStart ? "it has an empty identifier before or after a \".\"" : nil
    }

    /// `U+0020 " "`: the code point always (the scalar may be invisible), the scalar quoted.
    private static func described(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        let codePoint = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return "\(codePoint) \(JSONWriter.string(.string(String(scalar))))"
    }
}

/// The scalars the Swift lexer accepts in identifiers (the ranges of C's N1518 Annex X, as the
/// compiler and swift-syntax list them): ASCII letters, digits, `_` and `$`, and most letters,
/// marks and symbols beyond ASCII, including the emoji of the supplementary planes (`🐶` can
/// name a type) but not the dingbats and arrows of the BMP (`✈` cannot).
enum SwiftIdentifierScalars {
    /// Beyond ASCII, sorted: scalars an identifier may contain.
    private static let allowed: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
        0xD8...0xF6, 0xF8...0xFF, 0x100...0x167F, 0x1681...0x180D, 0x180F...0x1FFF, 0x200B...0x200D,
        0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x218F, 0x2460...0x24FF,
        0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F,
        0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE44, 0xFE47...0xFFF8, 0x10000...0x1FFFD,
        0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD,
        0x70000...0x7FFFD, 0x80000...0x8FFFD, 0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD,
        0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
    ]

    /// Combining marks: allowed inside an identifier, not first.
    private static let notFirst: [ClosedRange<UInt32>] = [0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]

    static func canContinue(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return isASCIILetter(value) || isASCIIDigit(value) || value == 0x5F || value == 0x24 }
        // Binary search: the first range whose upper bound reaches the scalar.
        var (low, high) = (0, allowed.count)
        while low < high {
            let middle = (low + high) / 2
            if allowed[middle].upperBound < value { low = middle + 1 } else { high = middle }
        }
        return low < allowed.count && allowed[low].contains(value)
    }

    /// A digit or `$` continues an identifier but cannot start one (`$0` is a closure argument).
    static func canStart(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return isASCIILetter(value) || value == 0x5F }
        return canContinue(scalar) && !notFirst.contains { $0.contains(value) }
    }

    private static func isASCIILetter(_ value: UInt32) -> Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    private static func isASCIIDigit(_ value: UInt32) -> Bool { (0x30...0x39).contains(value) }
}
