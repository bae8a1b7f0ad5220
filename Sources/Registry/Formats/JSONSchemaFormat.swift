/// The `format` values JSON Schema defines, checked as its format-assertion vocabulary says.
/// Every check reads Unicode scalars (never `Character`s, whose grapheme merging would hide a
/// combining mark or a `\r\n`) and accepts ASCII digits only where the RFCs say DIGIT.
public enum JSONSchemaFormat {
    /// Each format's check over the value's scalars. Format names are compared byte for byte.
    private static let checks: [(name: String, check: @Sendable ([Unicode.Scalar]) -> Bool)] = [
        ("date-time", { DateTimeFormat.isDateTime($0) }),
        ("date", { DateTimeFormat.isDate($0[...]) }),
        ("time", { DateTimeFormat.isTime($0[...]) }),
        ("duration", { DateTimeFormat.isDuration($0) }),
        ("email", { EmailFormat.isEmail($0, international: false) }),
        ("idn-email", { EmailFormat.isEmail($0, international: true) }),
        ("hostname", { HostnameFormat.isHostname($0, international: false) }),
        ("idn-hostname", { HostnameFormat.isHostname($0, international: true) }),
        ("ipv4", { IPAddressFormat.isIPv4($0[...]) }),
        ("ipv6", { IPAddressFormat.isIPv6($0[...]) }),
        ("uri", { URIFormat.isURI($0, international: false, reference: false) }),
        ("uri-reference", { URIFormat.isURI($0, international: false, reference: true) }),
        ("iri", { URIFormat.isURI($0, international: true, reference: false) }),
        ("iri-reference", { URIFormat.isURI($0, international: true, reference: true) }),
        ("uri-template", { URITemplateFormat.isURITemplate($0) }),
        ("uuid", { isUUID($0) }),
        ("json-pointer", { JSONPointerFormat.isPointer($0[...]) }),
        ("relative-json-pointer", { JSONPointerFormat.isRelativePointer($0) }),
        ("regex", { ECMARegex.isValidSyntax(String(String.UnicodeScalarView($0))) }),
    ]

    /// The formats `check` knows.
    public static var known: [String] { checks.map(\.name) }

    /// Whether `value` is a valid `format`; nil when the format is not one this registry knows
    /// (an unknown format is an annotation and never fails).
    public static func check(_ format: String, _ value: String) -> Bool? {
        guard let entry = checks.first(where: { format.hasSameBytes(as: $0.name) }) else { return nil }
        return entry.check(Array(value.unicodeScalars))
    }

    /// RFC 9562: 8-4-4-4-12 hex digits, any version and variant, either case.
    static func isUUID(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count == 36 else { return false }
        for (index, scalar) in scalars.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard scalar == "-" else { return false }
            } else if !scalar.isASCIIHexDigit {
                return false
            }
        }
        return true
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIIHexDigit: Bool { isASCIIDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// Reads a run of ASCII digits as a number (saturating), for the fixed-width fields of dates.
func asciiNumber(_ scalars: ArraySlice<Unicode.Scalar>) -> Int? {
    guard !scalars.isEmpty, scalars.allSatisfy(\.isASCIIDigit) else { return nil }
    return scalars.reduce(0) { min($0 * 10 + Int($1.value - 0x30), 1_000_000_000) }
}
