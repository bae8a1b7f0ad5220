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
    /// `serve`'s queue, as long as an event loop's queue of statements waiting for a session: a
    /// waiting request holds no thread, and the connection limits bound what it holds. (Before
    /// the queue held no thread, a request waited for a handler thread instead, with no other
    /// bound either; a shorter queue would turn that wait into 503s.)
    public static let waitingHeavyRequestsWhenServing = 1024
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
    /// A publish, dry run, check, preview or uncached form of a schema text at least this long
    /// is CPU-heavy: parsing, outlining and rendering it take milliseconds, and earlier versions
    /// of a type are usually about as large as its new one.
    static let largeSchemaBytes = 16 << 10

    static func isHeavy(_ jsonSchema: String) -> Bool { jsonSchema.utf8.count >= largeSchemaBytes }

    /// A check or preview is heavy when its schema is, or when its body is as large: checking
    /// many values costs as much as a large schema, and the step budget bounds it, not the loop.
    static func isHeavy(_ jsonSchema: String, body: [UInt8]) -> Bool { isHeavy(jsonSchema) || body.count >= largeSchemaBytes }

    init(_ settings: ReviewSettings) {
        outlines = CompatibilityOutlineCache(capacityBytes: settings.outlineBytes)
        gate = HeavyWorkGate(permits: settings.concurrentHeavyRequests, maxWaiting: settings.waitingHeavyRequests)
        maxComparedVersions = max(1, settings.maxComparedVersions)
        maxReportedProblems = max(1, settings.maxReportedProblems)
    }
}
