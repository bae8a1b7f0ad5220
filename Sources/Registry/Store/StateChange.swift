/// A state a caller asks a version to move to, with what that state records.
public enum StateChange: Sendable, Equatable {
    /// `sunset` is RFC 3339, already checked.
    case deprecate(message: String, sunset: String?)
    case disable(reason: String)
    case restore

    /// The `state` the version ends in.
    public var stateName: String {
        switch self {
        case .deprecate: "deprecated"
        case .disable: "disabled"
        case .restore: "active"
        }
    }
}

extension StateChange {
    /// A sunset as the API accepts it: an RFC 3339 date-time from 1970 through 9999, which the
    /// database stores exactly.
    public static func isSunset(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= 64, DateTimeFormat.isDateTime(scalars), let year = Int(String(String.UnicodeScalarView(scalars[0..<4]))) else {
            return false
        }
        return year >= 1970
    }

    /// The rule for a deprecation message or a disable reason: present, at most
    /// `VersionState.maxTextBytes` bytes, without control characters other than line breaks.
    public static func validateText(_ text: String, field: String) throws(RegistryError) {
        guard !text.isEmpty else { throw .invalidArgument("\(field): must not be empty") }
        guard text.utf8.count <= VersionState.maxTextBytes else {
            throw .invalidArgument("\(field): at most \(VersionState.maxTextBytes) bytes")
        }
        guard !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }) else {
            throw .invalidArgument("\(field): must not contain control characters other than line feeds")
        }
    }
}
