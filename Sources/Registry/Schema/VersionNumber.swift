/// Version numbers: integers 1…2147483647 (a positive int32), given as a JSON number or a
/// numeric string as protobuf JSON allows.
public enum VersionNumber {
    public static let range: ClosedRange<Int64> = 1...Int64(Int32.max)

    /// Reads a version from a request body value.
    public static func parse(_ value: JSONValue, field: String = "version") throws(RegistryError) -> Int32 {
        switch value {
        case .number(let lexeme):
            guard let double = Double(lexeme), double.isFinite, double.rounded() == double else {
                throw .invalidArgument("\(field): must be an integer, not \(ClientText.shown(lexeme))")
            }
            return try checked(double, field: field, shown: lexeme)
        case .string(let text):
            return try parse(text, field: field)
        default:
            throw .invalidArgument("\(field): must be an integer, not \(value.typeName)")
        }
    }

    /// Reads a version from text (a path segment or a numeric string in a body).
    public static func parse(_ text: String, field: String = "version") throws(RegistryError) -> Int32 {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .invalidArgument("\(field): must be an integer, not \(ClientText.quoted(text))")
        }
        guard let number = Int64(text) else {
            throw .invalidArgument("\(field): must be between 1 and \(Int32.max)")
        }
        return try checked(Double(number), field: field, shown: text)
    }

    private static func checked(_ number: Double, field: String, shown: String) throws(RegistryError) -> Int32 {
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidArgument("\(field): must be between 1 and \(Int32.max), not \(ClientText.shown(shown))")
        }
        return Int32(number)
    }
}
