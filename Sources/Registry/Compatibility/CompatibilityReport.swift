/// The verdict on publishing a new version while apps built against earlier ones are installed.
public struct CompatibilityReport: Sendable, Equatable {
    /// Oldest earlier version first, then by path.
    public let problems: [CompatibilityProblem]

    /// True when no installed app would fail on the new data.
    public var isCompatible: Bool { problems.isEmpty }

    /// `{"compatible": bool, "problems": [...]}`.
    public var jsonValue: JSONValue {
        ["compatible": .bool(isCompatible), "problems": .array(problems.map(\.jsonValue))]
    }
}
