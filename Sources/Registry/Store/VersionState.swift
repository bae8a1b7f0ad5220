/// Where a published version is in its life. The content never changes; only this does, and
/// any state can go back to `active`.
public enum VersionState: Sendable, Equatable {
    case active
    /// Still served everywhere, with notice to its readers (headers, warnings, the JSON).
    case deprecated(Deprecation)
    /// Withdrawn: every reader refuses it; its number stays taken.
    case disabled(Disablement)

    /// The `state` string of the API and of the `schema_versions.state` column.
    public var name: String {
        switch self {
        case .active: "active"
        case .deprecated: "deprecated"
        case .disabled: "disabled"
        }
    }

    public var isDisabled: Bool {
        if case .disabled = self { return true }
        return false
    }

    public var deprecation: Deprecation? {
        if case .deprecated(let deprecation) = self { return deprecation }
        return nil
    }

    /// The longest deprecation message or disable reason, in UTF-8 bytes.
    public static let maxTextBytes = 1024
}

/// Why a version is deprecated and until when it is meant to be read.
public struct Deprecation: Sendable, Equatable {
    public let message: String
    /// RFC 3339 UTC, when readers should have moved on; nil when none was given.
    public let sunset: String?
    /// RFC 3339 UTC, when it was deprecated.
    public let at: String
    /// Unix seconds of `at`, for the `Deprecation` header (RFC 9745: `@<seconds>`).
    public let atUnixSeconds: Int64
    /// `sunset` as an HTTP-date, for the `Sunset` header (RFC 8594).
    public let sunsetHTTPDate: String?
    /// Who deprecated it (a token's name, `token <id>`, or `cli`).
    public let by: String

    public init(message: String, sunset: String?, at: String, atUnixSeconds: Int64, sunsetHTTPDate: String?, by: String) {
        self.message = message
        self.sunset = sunset
        self.at = at
        self.atUnixSeconds = atUnixSeconds
        self.sunsetHTTPDate = sunsetHTTPDate
        self.by = by
    }
}

/// Why a version was withdrawn, when and by whom.
public struct Disablement: Sendable, Equatable {
    public let reason: String
    /// RFC 3339 UTC.
    public let at: String
    public let by: String

    public init(reason: String, at: String, by: String) {
        self.reason = reason
        self.at = at
        self.by = by
    }
}

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

/// Which version `latest` names for a type: the pinned one when a pin names a live version that
/// is not disabled; else the newest active version; else, when only deprecated versions are
/// left, the newest deprecated one. Never a disabled version.
public struct LatestCandidates: Sendable, Equatable {
    /// The pinned version when it is live and not disabled.
    public let pinned: Int32?
    public let newestActive: Int32?
    public let newestDeprecated: Int32?

    public init(pinned: Int32?, newestActive: Int32?, newestDeprecated: Int32?) {
        self.pinned = pinned
        self.newestActive = newestActive
        self.newestDeprecated = newestDeprecated
    }

    /// The version `latest` answers, nil when the type has no version that is not disabled.
    public var latest: Int32? { pinned ?? newestActive ?? newestDeprecated }
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
