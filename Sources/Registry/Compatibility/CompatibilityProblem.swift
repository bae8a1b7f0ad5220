/// One way an app built against an earlier version would fail to decode data shaped by a new
/// version (ActivityKit decodes with `JSONDecoder` defaults and fails the whole update on one
/// bad field, silently for the sender).
public struct CompatibilityProblem: Sendable, Equatable {
    /// The kinds of failure, named as they appear in the JSON.
    public enum Kind: String, Sendable {
        /// A field of the old version is gone: a non-optional Swift property would be missing.
        case removed
        /// The new values are not all decodable as the old type.
        case typeChanged = "type_changed"
        /// The new version allows `null` where the old one required a value.
        case nullable
        /// The new version allows values an old `enum` does not know (or no longer lists them).
        case enumValueAdded = "enum_value_added"
    }

    /// The earlier version whose apps are affected.
    public let version: Int32
    /// The field, as in the form (`content-state.legs[].gate`).
    public let path: String
    /// What fails, as a type so callers can switch on it; `problem` is its wire name.
    public let kind: Kind
    /// Plain English naming the field and the versions, for the person publishing.
    public let message: String

    /// The kind's wire name (`removed`, `type_changed`, `nullable`, `enum_value_added`).
    public var problem: String { kind.rawValue }

    /// `{"version": 1, "path": "content-state.gate", "problem": "removed", "message": "…"}`.
    public var jsonValue: JSONValue {
        [
            "version": .number(String(version)),
            "path": .string(path),
            "problem": .string(problem),
            "message": .string(message),
        ]
    }
}
