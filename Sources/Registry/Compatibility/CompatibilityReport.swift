/// The verdict on publishing a new version while apps built against earlier ones are installed.
public struct CompatibilityReport: Sendable, Equatable {
    /// The policy it was made under.
    public let policy: CompatibilityPolicy
    /// The versions compared, newest first (each distinct text at its oldest live version).
    public let comparedVersions: [Int32]
    /// Comparison stopped at the per-request limit: older distinct texts were not compared.
    public let limitReached: Bool
    /// What this version breaks that the newest version did not already break; oldest
    /// version first, then by path.
    public let problems: [CompatibilityProblem]
    /// Problems the newest version already had, accepted before this publish; same order.
    public let inheritedProblems: [CompatibilityProblem]

    public init(
        policy: CompatibilityPolicy, comparedVersions: [Int32], limitReached: Bool, problems: [CompatibilityProblem],
        inheritedProblems: [CompatibilityProblem]
    ) {
        self.policy = policy
        self.comparedVersions = comparedVersions
        self.limitReached = limitReached
        self.problems = problems
        self.inheritedProblems = inheritedProblems
    }

    /// True when this version breaks nothing new for installed apps.
    public var isCompatible: Bool { problems.isEmpty }

    /// Problems grouped by path and kind, new ones first, each with the versions it concerns,
    /// so one change reads as one line however many versions it affects.
    public var groups: [CompatibilityGroup] {
        CompatibilityGroup.grouping(problems, isNew: true) + CompatibilityGroup.grouping(inheritedProblems, isNew: false)
    }

    /// One sentence for people: what was compared and what was found.
    public var summary: String {
        if policy.mode == .none { return "not compared: the compatibility mode of this type is none" }
        guard !comparedVersions.isEmpty else {
            return policy.oldestSupportedVersion > 1
                ? "nothing to compare: no earlier live version from version \(policy.oldestSupportedVersion) up"
                : "nothing to compare: no earlier live version"
        }
        let versions = comparedVersions.count == 1 ? "version \(comparedVersions[0])" : "\(comparedVersions.count) versions"
        var sentence = isCompatible
            ? "compatible with \(versions) compared (\(policy.mode.rawValue))"
            : "\(Self.count(problems.count, "new problem")) against \(versions) compared (\(policy.mode.rawValue))"
        if !inheritedProblems.isEmpty {
            sentence += "; \(Self.count(inheritedProblems.count, "inherited problem")) the newest version already had"
        }
        if limitReached { sentence += "; stopped at the newest \(comparedVersions.count) distinct versions, older ones not compared" }
        return sentence
    }

    /// The wire shape: `compatible` and `problems` (new ones) as before, then the rest.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["compatible": .bool(isCompatible), "problems": .array(problems.map(\.jsonValue))]
        object["inherited_problems"] = .array(inheritedProblems.map(\.jsonValue))
        object["groups"] = .array(groups.map(\.jsonValue))
        for (key, value) in policy.jsonValue.members { object[key] = value }
        object["compared_versions"] = .array(comparedVersions.map { .number(String($0)) })
        object["comparison_limit_reached"] = .bool(limitReached)
        object["summary"] = .string(summary)
        return .object(object)
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }
}

/// One change as people read it: a path, what fails, and every compared version it affects.
public struct CompatibilityGroup: Sendable, Equatable {
    public let path: String
    public let kind: CompatibilityProblem.Kind
    /// False for a problem the newest version already had.
    public let isNew: Bool
    /// Ascending.
    public let versions: [Int32]
    /// The message of the newest affected version.
    public let message: String

    /// `{"path", "problem", "new", "versions", "message"}`.
    public var jsonValue: JSONValue {
        [
            "path": .string(path), "problem": .string(kind.rawValue), "new": .bool(isNew),
            "versions": .array(versions.map { .number(String($0)) }), "message": .string(message),
        ]
    }

    /// Groups problems by (path, kind) as code points, ordered by path bytes, then by first
    /// appearance.
    static func grouping(_ problems: [CompatibilityProblem], isNew: Bool) -> [CompatibilityGroup] {
        var order: [[Unicode.Scalar]] = []
        var grouped: [[Unicode.Scalar]: [CompatibilityProblem]] = [:]
        for problem in problems {
            let key = Array(problem.path.unicodeScalars) + [Unicode.Scalar(UInt8(0))] + Array(problem.kind.rawValue.unicodeScalars)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(problem)
        }
        let groups = order.map { key in
            let members = grouped[key]!.sorted { $0.version < $1.version }
            return CompatibilityGroup(
                path: members[0].path, kind: members[0].kind, isNew: isNew, versions: members.map(\.version),
                message: members[members.count - 1].message)
        }
        return groups.enumerated().sorted { a, b in
            a.element.path.utf8.elementsEqual(b.element.path.utf8)
                ? a.offset < b.offset : a.element.path.utf8.lexicographicallyPrecedes(b.element.path.utf8)
        }.map(\.element)
    }
}
