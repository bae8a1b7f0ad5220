/// The replay position a standby must show before it answers a read of one application
/// (`StandbyReads`, rule 1), kept per application so that changes to one application do not
/// hold back standby reads of another.
///
/// For every application A, `required(for: A)` is at or past the commit of every change to A
/// this replica's change follower has reported, and never goes back:
/// - a feed read that reported changes raises the entry of each application it named to the
///   primary's insert position at that read;
/// - a read that restarted the caches (the follower's first read, a reconnection, more changes
///   than a page) raises `floor`, which counts for every application: what changed is not known;
/// - at most `capacity` applications have an entry; beyond it the least recently raised ones
///   are dropped, and `evicted` keeps the highest position dropped. An application without an
///   entry (never changed since the last restart, or dropped) requires `max(floor, evicted)`,
///   at or past anything its entry could have held. A new entry starts at `evicted` or more, so
///   being dropped and raised again never lowers an application's requirement either.
///
/// Not thread-safe: `StandbyReads` holds it in a mutex.
struct RequiredPositions: Sendable {
    static let defaultCapacity = 10_000

    let capacity: Int
    /// The highest position of a read that restarted the caches.
    private(set) var floor: UInt64 = 0
    /// The highest position an entry held when it was dropped.
    private(set) var evicted: UInt64 = 0
    private var entries: [Int64: Entry] = [:]
    /// Raises so far, to tell the least recently raised entries.
    private var raises: UInt64 = 0

    private struct Entry: Sendable {
        var position: UInt64
        var raisedAt: UInt64
    }

    init(capacity: Int = Self.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// How many applications have an entry of their own.
    var count: Int { entries.count }

    /// The position a standby must have replayed for a read of `application`; 0 before any
    /// feed read (nothing is known: the primary answers).
    func required(for application: Int64) -> UInt64 {
        max(floor, entries[application]?.position ?? evicted)
    }

    /// A feed read at `position` reported changes to these applications.
    mutating func raise(_ applications: some Sequence<Int64>, to position: UInt64) {
        for application in applications {
            raises += 1
            let current = entries[application]?.position ?? evicted
            entries[application] = Entry(position: max(current, position), raisedAt: raises)
        }
        if entries.count > capacity { evictLeastRecentlyRaised() }
    }

    /// A feed read at `position` restarted the caches: every application requires it. Entries
    /// at or below it say nothing more and are dropped.
    mutating func raiseAll(to position: UInt64) {
        guard position > floor else { return }
        floor = position
        entries = entries.filter { $0.value.position > position }
    }

    /// Drops the least recently raised tenth of `capacity` (at least the excess) at once, so
    /// the sort is paid once per many new applications rather than on each.
    private mutating func evictLeastRecentlyRaised() {
        let excess = entries.count - capacity
        let dropped = entries.sorted { $0.value.raisedAt < $1.value.raisedAt }.prefix(max(excess, capacity / 10))
        for (application, entry) in dropped {
            evicted = max(evicted, entry.position)
            entries[application] = nil
        }
    }
}
