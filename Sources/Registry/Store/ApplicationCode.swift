/// The rule for an application's code: 1–128 bytes without control characters or `/`. It is a
/// query parameter and a path segment, and an import records the code it came from.
public enum ApplicationCode {
    public static let maxBytes = 128

    /// Throws a 400 naming `field` when `code` breaks the rule.
    public static func validate(_ code: String, field: String = "application") throws(RegistryError) {
        guard !code.isEmpty else { throw .invalidArgument("\(field): must not be empty") }
        guard code.utf8.count <= maxBytes else { throw .invalidArgument("\(field): longer than \(maxBytes) bytes") }
        guard !code.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "/" }) else {
            throw .invalidArgument("\(field): must not contain control characters or '/'")
        }
    }
}
