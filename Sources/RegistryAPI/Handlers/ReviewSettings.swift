import Registry

/// Bounds on the work of compatibility reviews, from configuration.
public struct ReviewSettings: Sendable {
    /// The most distinct earlier texts one publish or dry run compares, newest first.
    public var maxComparedVersions: Int
    /// The most groups, new problems and inherited problems one report lists, each (the
    /// totals are always given): the answer and the publish's audit row stay small however
    /// many versions and fields a type has.
    public var maxReportedProblems: Int
    /// CPU-heavy requests (publish, dry run; uncached forms, checks and previews of large
    /// schemas) run at once.
    public var concurrentHeavyRequests: Int
    /// How many more may wait for a turn before the next is answered 503.
    public var waitingHeavyRequests: Int
    /// `serve`'s queue (`PlacementLimits.waitingHeavyRequests`).
    public static let waitingHeavyRequestsWhenServing = PlacementLimits.waitingHeavyRequests
    /// Memory for cached compatibility outlines, bookkeeping included; 0 disables that cache.
    /// Part of the 64 MB the service is measured against (bench/README.md): an outline costs
    /// about twice its text, so this holds some 700 outlines of the bench's average schema.
    public var outlineBytes: Int

    public init(
        maxComparedVersions: Int = 100, maxReportedProblems: Int = CompatibilityReport.defaultListLimit,
        concurrentHeavyRequests: Int = 2, waitingHeavyRequests: Int = 8, outlineBytes: Int = 8 << 20
    ) {
        self.maxComparedVersions = maxComparedVersions
        self.maxReportedProblems = maxReportedProblems
        self.concurrentHeavyRequests = concurrentHeavyRequests
        self.waitingHeavyRequests = waitingHeavyRequests
        self.outlineBytes = outlineBytes
    }
}

/// What every review shares: the outline cache, the gate and the comparison limit.
final class Reviews: Sendable {
    let outlines: CompatibilityOutlineCache
    let gate: HeavyWorkGate
    let maxComparedVersions: Int
    let maxReportedProblems: Int
    static func isHeavy(_ jsonSchema: String) -> Bool { jsonSchema.utf8.count >= PlacementLimits.heavyTextBytes }

    /// A check or preview is heavy when its schema is, or when its body is as large: checking
    /// many values costs as much as a large schema, and the step budget bounds it, not the loop.
    static func isHeavy(_ jsonSchema: String, body: [UInt8]) -> Bool { isHeavy(jsonSchema) || body.count >= PlacementLimits.heavyTextBytes }

    init(_ settings: ReviewSettings) {
        outlines = CompatibilityOutlineCache(capacityBytes: settings.outlineBytes)
        gate = HeavyWorkGate(permits: settings.concurrentHeavyRequests, maxWaiting: settings.waitingHeavyRequests)
        maxComparedVersions = max(1, settings.maxComparedVersions)
        maxReportedProblems = max(1, settings.maxReportedProblems)
    }
}
