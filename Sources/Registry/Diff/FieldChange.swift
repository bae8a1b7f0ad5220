/// One field-level difference between two versions of a type, in form terms.
public struct FieldChange: Sendable, Equatable {
    /// What differs, named as in the JSON.
    public enum Kind: String, Sendable, CaseIterable {
        case added, removed
        /// The field's JSON type (`string`, `integer`, …).
        case type
        case required, nullable
        /// The values a `select` allows.
        case enumValues = "enum_values"
        /// A limit such as `max_length`; `property` names it.
        case constraint
        /// The string `format` (`date-time`, `uri`, …).
        case format
        /// How a date is written when it is not a string (`apple-reference-seconds`).
        case encoding
    }

    /// The field, as in the form (`content-state.terminal.gate`).
    public let path: String
    public let kind: Kind
    /// For `constraint`, the form's name of the limit (`min_length`); nil otherwise.
    public let property: String?
    /// The earlier and the newer value of what changed; nil when it was absent.
    public let old: JSONValue?
    public let new: JSONValue?
    /// What the compatibility check says apps built against the earlier version would fail on
    /// because of this change; empty when the change is safe for them.
    public let problems: [CompatibilityProblem]

    public init(path: String, kind: Kind, property: String? = nil, old: JSONValue?, new: JSONValue?, problems: [CompatibilityProblem] = []) {
        self.path = path
        self.kind = kind
        self.property = property
        self.old = old
        self.new = new
        self.problems = problems
    }

    /// Whether installed apps built against the earlier version would fail on the newer data.
    public var isBreaking: Bool { !problems.isEmpty }

    /// `{"path", "change", "property"?, "old"?, "new"?, "breaking", "reasons"?}`.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["path": .string(path), "change": .string(kind.rawValue)]
        if let property { object["property"] = .string(property) }
        if let old { object["old"] = old }
        if let new { object["new"] = new }
        object["breaking"] = .bool(isBreaking)
        if isBreaking { object["reasons"] = .array(problems.map { .string($0.message) }) }
        return .object(object)
    }
}
