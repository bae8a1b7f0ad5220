import Striping

/// A small cache whose entries expire after a fixed time, for lookups that may be a few
/// seconds stale (token → account, code → application). Bounded by entry count: when full it
/// starts over, which is cheap and keeps a flood of distinct keys from growing memory.
///
/// Entries are striped by key, so lookups of different keys never share a lock. Handler
/// threads fill it and event loops read it (they must never load), so it cannot be per thread.
public final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let lifetime: Double
    private let maxEntries: Int
    private let clock: @Sendable () -> Double
    private let entries = Striped<[Key: Entry]>(count: 16) { [:] }

    private struct Entry: Sendable {
        let value: Value
        let expires: Double
    }

    /// - Parameter lifetime: seconds an entry is served; 0 disables the cache.
    public init(lifetime: Double, maxEntries: Int = 10_000, clock: @escaping @Sendable () -> Double) {
        self.lifetime = lifetime
        self.maxEntries = maxEntries
        self.clock = clock
    }

    /// The value stored under `key` if it has not expired.
    public func cached(_ key: Key) -> Value? {
        guard lifetime > 0 else { return nil }
        let now = clock()
        guard let entry = entries.withStripe(for: key.hashValue, { $0[key] }), entry.expires > now else { return nil }
        return entry.value
    }

    public func store(_ value: Value, for key: Key) {
        guard lifetime > 0 else { return }
        let expires = clock() + lifetime
        let perStripe = max(1, maxEntries / entries.count)
        entries.withStripe(for: key.hashValue) { entries in
            if entries.count >= perStripe { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, expires: expires)
        }
    }

    public func removeAll() {
        entries.forEach { $0.removeAll() }
    }
}
