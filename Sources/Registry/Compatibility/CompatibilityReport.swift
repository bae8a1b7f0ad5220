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
    /// Fields of the compared versions whose shape the comparison cannot read, once each:
    /// neither compatible nor a problem, and said rather than passed over.
    public let notCompared: [NotComparedField]
    /// The most groups, new problems and inherited problems the wire shape lists, each: the
    /// problems grow with versions × fields (120 versions of 117 different names are 14,040
    /// problems), and the answer and the audit row that stores it must stay small. The totals
    /// are always given.
    public let listLimit: Int

    /// The default of `listLimit`: every group of a large type's usual break fits.
    public static let defaultListLimit = 200

    public init(
        policy: CompatibilityPolicy, comparedVersions: [Int32], limitReached: Bool, problems: [CompatibilityProblem],
        inheritedProblems: [CompatibilityProblem], notCompared: [NotComparedField] = [], listLimit: Int = defaultListLimit
    ) {
        self.policy = policy
        self.comparedVersions = comparedVersions
        self.limitReached = limitReached
        self.problems = problems
        self.inheritedProblems = inheritedProblems
        self.notCompared = notCompared
        self.listLimit = max(1, listLimit)
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
        if !notCompared.isEmpty {
            sentence += "; \(Self.count(notCompared.count, "field")) not compared (see not_compared)"
        }
        if limitReached { sentence += "; stopped at the newest \(comparedVersions.count) distinct versions, older ones not compared" }
        return sentence
    }

    /// The wire shape: `compatible` and `problems` (new ones) as before, then the rest. Each
    /// list holds its first `listLimit` entries; the counts give the totals and `truncated`
    /// says whether any list was cut.
    public var jsonValue: JSONValue {
        let groups = groups
        var object: JSONObject = [
            "compatible": .bool(isCompatible), "problems": .array(problems.prefix(listLimit).map(\.jsonValue)),
        ]
        object["inherited_problems"] = .array(inheritedProblems.prefix(listLimit).map(\.jsonValue))
        object["groups"] = .array(groups.prefix(listLimit).map(\.jsonValue))
        object["problem_count"] = .number(String(problems.count))
        object["inherited_problem_count"] = .number(String(inheritedProblems.count))
        object["group_count"] = .number(String(groups.count))
        object["not_compared"] = .array(notCompared.prefix(listLimit).map(\.jsonValue))
        object["truncated"] = .bool(max(problems.count, inheritedProblems.count, groups.count, notCompared.count) > listLimit)
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

    /// `versions` as runs of consecutive numbers, ascending: a break of every version since
    /// the first is one range however many versions there are.
    public var versionRanges: [ClosedRange<Int32>] {
        var ranges: [ClosedRange<Int32>] = []
        for version in versions {
            if let last = ranges.last, last.upperBound < Int32.max, last.upperBound + 1 == version {
                ranges[ranges.count - 1] = last.lowerBound...version
            } else if ranges.last?.contains(version) != true {
                ranges.append(version...version)
            }
        }
        return ranges
    }

    /// `versionRanges` as people read them: `1–3, 7`.
    public var versionRangesText: String {
        versionRanges.map { $0.lowerBound == $0.upperBound ? String($0.lowerBound) : "\($0.lowerBound)–\($0.upperBound)" }
            .joined(separator: ", ")
    }

    /// `{"path", "problem", "new", "version_ranges": [[first, last], …], "version_count", "message"}`.
    public var jsonValue: JSONValue {
        [
            "path": .string(path), "problem": .string(kind.rawValue), "new": .bool(isNew),
            "version_ranges": .array(versionRanges.map { .array([.number(String($0.lowerBound)), .number(String($0.upperBound))]) }),
            "version_count": .number(String(versions.count)), "message": .string(message),
        ]
    }

    /// Groups problems by (path, kind), the path by its bytes, ordered by path bytes, then by
    /// first appearance. The key holds the problem's own string, not a copy: a report may group
    /// 120,000 problems.
    static func grouping(_ problems: [CompatibilityProblem], isNew: Bool) -> [CompatibilityGroup] {
        struct Key: Hashable {
            let path: ExactName
            let kind: CompatibilityProblem.Kind
        }
        var order: [Key] = []
        var grouped: [Key: [CompatibilityProblem]] = [:]
        for problem in problems {
            let key = Key(path: ExactName(problem.path), kind: problem.kind)
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
