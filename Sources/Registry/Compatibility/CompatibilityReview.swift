/// One earlier version a new one may be compared with: its number, the SHA-256 of its text
/// (its identity: equal texts have equal problems) and its outline.
public struct ComparedVersion: Sendable {
    public let version: Int32
    public let contentHash: [UInt8]
    public let outline: CompatibilityOutline

    public init(version: Int32, contentHash: [UInt8], outline: CompatibilityOutline) {
        self.version = version
        self.contentHash = contentHash
        self.outline = outline
    }
}

extension Compatibility {
    /// The verdict on a new version under `policy`.
    ///
    /// Which versions are compared: none under `none`; the newest live version under `backward`;
    /// under `backward_transitive`, each distinct text of `earlier` plus the newest version's,
    /// all from the floor up. Earlier texts identical to the new one have no problems and are
    /// left out, except the newest version, which is listed as compared.
    ///
    /// New or inherited: a problem against version V is inherited when the newest version
    /// already had the same problem against V (same path, kind and wording, which names the new
    /// type or the added values), so it was accepted before this publish; anything else is new.
    /// Only new problems make the version incompatible, so one accepted break does not mark
    /// every later publish.
    ///
    /// - Parameters:
    ///   - newest: the newest live version below the new one, nil when there is none.
    ///   - earlier: distinct live texts at their oldest live version from the floor up, as
    ///     many as the caller compares (newest first when it had to stop).
    ///   - limitReached: the caller stopped before reading every distinct text.
    ///   - listLimit: the most entries each list of the report's wire shape holds.
    public static func review(
        _ new: CompatibilityOutline, contentHash: [UInt8], policy: CompatibilityPolicy, newest: ComparedVersion?,
        earlier: [ComparedVersion], limitReached: Bool, listLimit: Int = CompatibilityReport.defaultListLimit
    ) -> CompatibilityReport {
        let floor = policy.oldestSupportedVersion
        let newestSupported = newest.flatMap { $0.version >= floor ? $0 : nil }
        var compared: [ComparedVersion]
        switch policy.mode {
        case .none:
            compared = []
        case .backward:
            compared = newestSupported.map { [$0] } ?? []
        case .backwardTransitive:
            compared = earlier.filter { $0.version >= floor && $0.contentHash != contentHash }
            if let newestSupported, !compared.contains(where: { $0.contentHash == newestSupported.contentHash }) {
                compared.append(newestSupported)
            }
        }
        compared.sort { $0.version < $1.version }
        var added: [CompatibilityProblem] = []
        var inherited: [CompatibilityProblem] = []
        var notCompared: [NotComparedField] = []
        for old in compared where old.contentHash != contentHash {
            let (found, unread) = comparison(from: old.outline, oldVersion: old.version, to: new)
            for field in unread where !notCompared.contains(where: { $0.path.hasSameBytes(as: field.path) }) {
                notCompared.append(field)
            }
            guard policy.mode == .backwardTransitive, let newest, newest.contentHash != old.contentHash, !found.isEmpty else {
                added += found
                continue
            }
            let accepted = Set(problems(from: old.outline, oldVersion: old.version, to: newest.outline).map(ProblemIdentity.init))
            for problem in found {
                if accepted.contains(ProblemIdentity(problem)) { inherited.append(problem) } else { added.append(problem) }
            }
        }
        return CompatibilityReport(
            policy: policy, comparedVersions: compared.map(\.version).reversed(),
            limitReached: policy.mode == .backwardTransitive && limitReached, problems: added, inheritedProblems: inherited,
            notCompared: notCompared, listLimit: listLimit)
    }
}

/// The same failure against the same version: path, kind and wording, compared by their bytes
/// (the problem's own strings, not copies of their scalars).
private struct ProblemIdentity: Hashable {
    let version: Int32
    let path: ExactName
    let kind: CompatibilityProblem.Kind
    let message: ExactName

    init(_ problem: CompatibilityProblem) {
        version = problem.version
        path = ExactName(problem.path)
        kind = problem.kind
        message = ExactName(problem.message)
    }
}
