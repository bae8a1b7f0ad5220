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
