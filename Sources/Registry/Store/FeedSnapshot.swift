/// Which transactions had committed when a statement took its snapshot: PostgreSQL's
/// `pg_snapshot`, written `xmin:xmax:xip,…`. A transaction below `xmin` had ended; one at or
/// past `xmax` had not started; one in between had ended unless it is listed in `xip`.
///
/// A webhook subscription keeps the snapshot of the statement that created it, so exactly the
/// changes committed before it are left out. Its starting feed position alone (the horizon)
/// cannot say that: the horizon is a conservative estimate that may be read lower by a later
/// statement, which would send a subscription changes that were final before it existed.
public struct FeedSnapshot: Sendable, Equatable {
    public let xmin: UInt64
    public let xmax: UInt64
    /// The transactions running when the snapshot was taken, between `xmin` and `xmax`.
    public let running: Set<UInt64>

    public init(xmin: UInt64, xmax: UInt64, running: Set<UInt64>) {
        self.xmin = xmin
        self.xmax = xmax
        self.running = running
    }

    /// `pg_snapshot`'s text form; nil for anything else.
    public init?(text: String) {
        let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 3, let xmin = Self.number(parts[0]), let xmax = Self.number(parts[1]), xmin <= xmax else { return nil }
        var running = Set<UInt64>()
        if !parts[2].isEmpty {
            for part in parts[2].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                guard let xid = Self.number(part), xid >= xmin, xid < xmax else { return nil }
                running.insert(xid)
            }
        }
        self.init(xmin: xmin, xmax: xmax, running: running)
    }

    private static func number(_ digits: Substring.UTF8View) -> UInt64? {
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return UInt64(Substring(digits))
    }

    /// Whether transaction `xid` had committed (or ended) when the snapshot was taken: its
    /// events were visible to the statement.
    public func sees(_ xid: UInt64) -> Bool {
        xid < xmin || (xid < xmax && !running.contains(xid))
    }
}
