import Registry
import Striping
import Synchronization

/// Reads counted in memory between flushes, per thread (like `Metrics`): the warm GET is the
/// hottest path, and one lock taken by every read would cost more than the read. A key read
/// on several threads has an entry in each stripe; `drain` merges them.
///
/// Bounded: at most `capacity` entries are held across all stripes. A read of a new key past
/// that is not counted (and counted in `droppedReads` instead) until the next flush frees the
/// entries, so a flood of distinct keys costs bounded memory rather than growing the map.
public final class UsageCounter: Sendable {
    private let stripes = Striped<[UsageKey: UsageTally]>(count: 16) { [:] }
    private let entries = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Counts one read of `key` at `time` (Unix seconds).
    public func record(_ key: UsageKey, at time: Double) {
        if !add(key, UsageTally(reads: 1, lastRead: time)) { dropped.add(1, ordering: .relaxed) }
    }

    /// Everything counted so far, each key once, leaving the counter empty.
    public func drain() -> [UsageKey: UsageTally] {
        var merged: [UsageKey: UsageTally] = [:]
        stripes.forEach { tallies in
            for (key, tally) in tallies { merged[key, default: UsageTally(reads: 0, lastRead: tally.lastRead)].merge(tally) }
            entries.subtract(tallies.count, ordering: .relaxed)
            tallies.removeAll(keepingCapacity: false)
        }
        return merged
    }

    /// Gives back what a failed flush drained, so a passing database outage loses nothing that
    /// fits under the capacity; what does not fit is counted as dropped.
    public func restore(_ drained: [UsageKey: UsageTally]) {
        for (key, tally) in drained {
            if !add(key, tally) { dropped.add(Int(clamping: tally.reads), ordering: .relaxed) }
        }
    }

    /// Entries held now, across stripes.
    public var count: Int { entries.load(ordering: .relaxed) }

    /// Reads not counted since start because the counter was full.
    public var droppedReads: Int { dropped.load(ordering: .relaxed) }

    /// Merges `tally` into this thread's entry for `key`, else takes a free entry for it; false when full.
    private func add(_ key: UsageKey, _ tally: UsageTally) -> Bool {
        stripes.withThreadStripe { tallies -> Bool in
            if let index = tallies.index(forKey: key) {
                tallies.values[index].merge(tally)
                return true
            }
            guard reserveEntry() else { return false }
            tallies[key] = tally
            return true
        }
    }

    private func reserveEntry() -> Bool {
        let (_, after) = entries.add(1, ordering: .relaxed)
        guard after <= capacity else {
            entries.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }
}
