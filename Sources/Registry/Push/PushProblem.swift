/// One finding about a push: where it is (`content-state.legs[2].gate`, `live_activity_id`),
/// what is wrong, and whether it blocks the push. Warnings exist because ActivityKit is lenient
/// (it ignores unknown keys), so some findings are worth showing without rejecting the push.
public struct PushProblem: Sendable, Equatable {
    /// An error makes the push invalid; a warning only informs.
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    /// Form-field paths for values (`content-state.gate`, `attributes.flightNumber`), so a
    /// journey builder can point at the field; request names for API fields (`send_date`).
    public let path: String
    public let message: String
    public let severity: Severity

    public init(path: String, message: String, severity: Severity) {
        self.path = path
        self.message = message
        self.severity = severity
    }

    static func error(_ path: String, _ message: String) -> PushProblem {
        PushProblem(path: path, message: message, severity: .error)
    }

    static func warning(_ path: String, _ message: String) -> PushProblem {
        PushProblem(path: path, message: message, severity: .warning)
    }

    /// The API rendering: `{"path", "message", "severity"}`.
    public var json: JSONValue {
        ["path": .string(path), "message": .string(message), "severity": .string(severity.rawValue)]
    }
}

extension [PushProblem] {
    /// Valid means no error; warnings never block a push.
    var hasNoErrors: Bool { !contains { $0.severity == .error } }
}
