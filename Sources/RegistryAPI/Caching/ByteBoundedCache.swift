import Synchronization

/// A thread-safe LRU cache bounded by the bytes its values hold, for data that never changes
/// once written (published schema versions and their forms) until it is deleted.
///
/// Entries form a doubly linked list threaded through an array of nodes (indices, not
/// references), so a hit is a dictionary lookup plus a few index swaps and no allocation.
public final class ByteBoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node {
        var key: Key
        /// Nil once the entry is removed, so what the cache evicts is freed at once: a removed
        /// slot waits on the free list until an insert reuses it, and a value left there would
        /// stay alive all that time without counting against the capacity.
        var value: Value?
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    private struct State {
        var index: [Key: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var newest: Int?
        var oldest: Int?
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    /// The most bytes held at once; 0 disables the cache.
    public let capacityBytes: Int

    /// The cache's own bytes per entry, for callers whose `cost` counts everything an entry
    /// holds: its node, and its slot in the key index at the index's fullest (three quarters)
    /// plus the free-list slot it takes when removed.
    public static var entryOverhead: Int {
        MemoryLayout<Node>.stride + (MemoryLayout<Key>.stride + MemoryLayout<Int>.stride) * 4 / 3 + MemoryLayout<Int>.stride
    }
    private let state = Mutex(State())

    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// The cached value, marking it most recently used; counted as a hit. A miss is counted
    /// by whoever then fetches the value (`recordMiss`), so a lookup whose fetch never runs
    /// (a request refused at shutdown) counts nothing.
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            state.hits += 1
            Self.unlink(slot, in: &state)
            Self.pushNewest(slot, in: &state)
            return state.nodes[slot].value
        }
    }

    /// Counts one value that was not cached and had to be fetched.
    public func recordMiss() {
        state.withLock { $0.misses += 1 }
    }

    /// Stores `value` costing `cost` bytes, evicting the least recently used entries to fit.
    /// A value larger than the whole cache is not stored, nor one that `admitted`, asked under
    /// the cache's lock, refuses (so a removal either sees the value or prevents it).
    public func insert(_ value: Value, for key: Key, cost: Int, if admitted: () -> Bool = { true }) {
        guard capacityBytes > 0, cost <= capacityBytes else { return }
        state.withLock { state in
            guard admitted() else { return }
            if let slot = state.index[key] {
                Self.remove(slot, in: &state)
            }
            while state.bytes + cost > capacityBytes, let oldest = state.oldest {
                Self.remove(oldest, in: &state)
            }
            let node = Node(key: key, value: value, cost: cost, newer: nil, older: nil)
            let slot: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                slot = reused
            } else {
                state.nodes.append(node)
                slot = state.nodes.count - 1
            }
            state.index[key] = slot
            state.bytes += cost
            Self.pushNewest(slot, in: &state)
        }
    }

    /// Drops every entry whose key matches.
    public func removeAll(where shouldRemove: (Key) -> Bool) {
        state.withLock { state in
            for (key, slot) in state.index where shouldRemove(key) {
                Self.remove(slot, in: &state)
            }
        }
    }

    /// Drops everything (used when invalidations may have been missed).
    public func removeAll() {
        state.withLock { state in
            let (hits, misses) = (state.hits, state.misses)
            state = State()
            state.hits = hits
            state.misses = misses
        }
    }

    /// Bytes held, entries, hits and misses, for metrics.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.bytes, $0.index.count, $0.hits, $0.misses) }
    }

    private static func remove(_ slot: Int, in state: inout State) {
        unlink(slot, in: &state)
        state.index[state.nodes[slot].key] = nil
        state.bytes -= state.nodes[slot].cost
        state.nodes[slot].value = nil
        state.free.append(slot)
    }

    private static func unlink(_ slot: Int, in state: inout State) {
        let node = state.nodes[slot]
        if let newer = node.newer { state.nodes[newer].older = node.older } else { state.newest = node.older }
        if let older = node.older { state.nodes[older].newer = node.newer } else { state.oldest = node.newer }
        state.nodes[slot].newer = nil
        state.nodes[slot].older = nil
    }

    private static func pushNewest(_ slot: Int, in state: inout State) {
        state.nodes[slot].older = state.newest
        state.nodes[slot].newer = nil
        if let newest = state.newest { state.nodes[newest].newer = slot }
        state.newest = slot
        if state.oldest == nil { state.oldest = slot }
    }
}
