/// What Swift's `JSONDecoder` refuses although no JSON Schema keyword says so, for the types
/// `schema-from-swift` tags with `x-swift-type`. Each rule was measured against swift-foundation
/// (which decodes as iOS 17 and later do) by the differential test of the Swift reader.
enum SwiftDecoding {
    /// `ClosedRange` and `Range` decode `[lower, upper]` and refuse a lower bound above the upper.
    static let ranges = ["ClosedRange", "Range"]

    static func rangeProblem(_ bounds: [JSONValue]) -> String? {
        guard bounds.count >= 2, case .number(let lower) = bounds[0], case .number(let upper) = bounds[1],
            JSONNumber(upper) < JSONNumber(lower)
        else { return nil }
        return "must not have a lower bound (\(lower)) above its upper bound (\(upper)): the app's range cannot hold it"
    }

    /// A `Decimal` holds magnitudes below 10^128; a `Float` refuses a non-zero number that
    /// rounds to zero.
    static func numberProblem(_ lexeme: String, swiftType: String) -> String? {
        switch swiftType {
        case "Decimal" where !(JSONNumber(lexeme.utf8.first == UInt8(ascii: "-") ? String(lexeme.dropFirst()) : lexeme) < decimalLimit):
            "is beyond what a Decimal holds (magnitudes below 1e128): the app cannot decode it"
        case "Float" where Float(lexeme) == 0 && hasNonZeroDigit(lexeme):
            "is too small for a Float (it rounds to zero): the app cannot decode it"
        default:
            nil
        }
    }

    private static let decimalLimit = JSONNumber("1e128")

    /// `URL(string:)` percent-encodes most text it is given, so `"not a url"` decodes; it refuses
    /// the empty string and an authority (`scheme://host`) whose host holds a character a host
    /// cannot (a space, a quote, …).
    static func urlProblem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty: the app's URL field cannot decode an empty string" }
        let scalars = Array(text.unicodeScalars)
        guard let separator = authorityStart(scalars) else { return nil }
        let host = scalars[separator...].prefix { !"/?#".unicodeScalars.contains($0) }
        let invalid = host.first { scalar in
            !(scalar.properties.isAlphabetic || scalar.properties.numericType != nil || hostPunctuation.contains(scalar))
        }
        guard let invalid else { return nil }
        return "has \(ClientText.quoted(String(invalid))) in its host, which URL(string:) refuses: the app cannot decode it"
    }

    private static let hostPunctuation = Set("-._~!$&'()*+,;=:@[]%".unicodeScalars)

    /// Where the authority begins after `scheme://`, if the text has one.
    private static func authorityStart(_ scalars: [Unicode.Scalar]) -> Int? {
        guard let colon = scalars.firstIndex(of: ":"), colon > 0, scalars[0].isASCIILetter,
            scalars[..<colon].allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) }),
            scalars.count >= colon + 3, scalars[colon + 1] == "/", scalars[colon + 2] == "/"
        else { return nil }
        return colon + 3
    }

    /// Whether a number's digits (before any exponent) include one that is not zero.
    static func hasNonZeroDigit(_ lexeme: String) -> Bool {
        lexeme.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
    }
}
