/// Who reads which version: reads counted per (application, type, version, token, UTC day),
/// with the last read time. Counted in memory on each replica and added to the store in one
/// statement per flush, so a read never writes to the database itself.
public struct UsageKey: Hashable, Sendable {
    public let applicationID: Int64
    /// Keyed by its bytes, as the database compares type names.
    public let attributesType: ExactName
    public let version: Int32
    public let tokenID: Int64
    /// Days since 1970-01-01 in UTC.
    public let day: Int32

    public init(applicationID: Int64, attributesType: String, version: Int32, tokenID: Int64, day: Int32) {
        self.applicationID = applicationID
        self.attributesType = ExactName(attributesType)
        self.version = version
        self.tokenID = tokenID
        self.day = day
    }

    /// The UTC day of a Unix time.
    public static func day(ofUnixSeconds seconds: Double) -> Int32 {
        Int32(clamping: Int64((seconds / 86_400).rounded(.down)))
    }

    /// The order a flush writes its rows in, so that two replicas flushing the same keys lock
    /// their rows in one order and never deadlock.
    public static func flushOrder(_ a: UsageKey, _ b: UsageKey) -> Bool {
        if a.applicationID != b.applicationID { return a.applicationID < b.applicationID }
        if !a.attributesType.text.hasSameBytes(as: b.attributesType.text) {
            return a.attributesType.text.utf8.lexicographicallyPrecedes(b.attributesType.text.utf8)
        }
        if a.version != b.version { return a.version < b.version }
        if a.tokenID != b.tokenID { return a.tokenID < b.tokenID }
        return a.day < b.day
    }
}

/// Reads of one key since the last flush.
public struct UsageTally: Sendable, Equatable {
    public var reads: Int64
    /// Unix seconds of the latest read.
    public var lastRead: Double

    public init(reads: Int64, lastRead: Double) {
        self.reads = reads
        self.lastRead = lastRead
    }

    public mutating func merge(_ other: UsageTally) {
        reads += other.reads
        lastRead = max(lastRead, other.lastRead)
    }
}

/// What the usage answers say about a version or a type: totals over the window asked for,
/// the readers with the most reads first, and reads per day.
public struct UsageReport: Sendable, Equatable {
    public struct Reader: Sendable, Equatable {
        public let tokenID: Int64
        /// "" for an unnamed token.
        public let tokenName: String
        public let reads: Int64
        /// RFC 3339 UTC.
        public let lastRead: String
        /// Reads per version, most read first; only in a type's report.
        public var versions: [(version: Int32, reads: Int64)]

        public init(tokenID: Int64, tokenName: String, reads: Int64, lastRead: String, versions: [(version: Int32, reads: Int64)] = []) {
            self.tokenID = tokenID
            self.tokenName = tokenName
            self.reads = reads
            self.lastRead = lastRead
            self.versions = versions
        }

        public static func == (a: Reader, b: Reader) -> Bool {
            a.tokenID == b.tokenID && a.tokenName.hasSameBytes(as: b.tokenName) && a.reads == b.reads
                && a.lastRead == b.lastRead && a.versions.map(\.version) == b.versions.map(\.version)
                && a.versions.map(\.reads) == b.versions.map(\.reads)
        }
    }

    public let summary: UsageSummary
    /// At most `UsageReport.maxReaders`, most reads first.
    public var readers: [Reader]
    /// `YYYY-MM-DD` and its reads, oldest first; days without reads are left out.
    public var days: [(day: String, reads: Int64)]

    public init(summary: UsageSummary, readers: [Reader], days: [(day: String, reads: Int64)]) {
        self.summary = summary
        self.readers = readers
        self.days = days
    }

    public static func == (a: UsageReport, b: UsageReport) -> Bool {
        a.summary == b.summary && a.readers == b.readers && a.days.map(\.day) == b.days.map(\.day)
            && a.days.map(\.reads) == b.days.map(\.reads)
    }

    /// Readers listed in one report; `summary.readers` counts them all.
    public static let maxReaders = 100
    /// Versions listed per reader in a type's report, most read first.
    public static let maxVersionsPerReader = 20
    /// The longest window a report covers, in days.
    public static let maxDays = 3660
}

/// The short form the state-change and delete answers carry.
public struct UsageSummary: Sendable, Equatable {
    public let totalReads: Int64
    /// Distinct tokens that read.
    public let readers: Int64
    /// RFC 3339 UTC; nil when nobody read in the window.
    public let lastRead: String?

    public init(totalReads: Int64, readers: Int64, lastRead: String?) {
        self.totalReads = totalReads
        self.readers = readers
        self.lastRead = lastRead
    }
}

/// The store's side of usage: adding a flush's counts, and reading them back, one statement
/// each and so `async` like the other one-statement calls of `SchemaStore`: a request on an
/// event loop flushes and reads holding no thread.
public protocol UsageStore: Sendable {
    /// Adds every count to its row in one statement (created when new, else reads added and
    /// the last read kept as the later one). `counts` holds each key once.
    func addReads(_ counts: [(key: UsageKey, tally: UsageTally)]) async throws

    /// Reads of one version (`version` given) or of every version of a type, in the last `days`
    /// UTC days, today included (nil: every row kept).
    func usage(application: Application, attributesType: String, version: Int32?, days: Int?) async throws -> UsageReport

    /// Deletes rows of days more than `days` ago, in batches of `batchSize`; returns how many.
    func pruneUsage(olderThanDays days: Int, batchSize: Int) throws -> Int
}
