/// The rules for an `attributesType`: 1–256 Unicode scalars, no control
/// characters (C0, DEL, C1) and no `/`, because it is a path segment and a Swift type name,
/// never free text.
public enum AttributesTypeName {
    public static let maxScalars = 256

    /// Throws a 400 naming `field` when `name` breaks a rule.
    public static func validate(_ name: String, field: String = "attributesType") throws(RegistryError) {
        var count = 0
        for scalar in name.unicodeScalars {
            count += 1
            if count > maxScalars {
                throw .invalidArgument("\(field): longer than \(maxScalars) characters")
            }
            switch scalar.value {
            case 0x00..<0x20, 0x7F...0x9F:
                throw .invalidArgument("\(field): must not contain control characters (found U+\(hex4(scalar.value)))")
            case 0x2F:
                throw .invalidArgument("\(field): must not contain '/'")
            default:
                continue
            }
        }
        if count == 0 { throw .invalidArgument("\(field): must not be empty") }
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
