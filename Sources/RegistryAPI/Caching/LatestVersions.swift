import Striping

/// Which version is the newest live one of each type, so `…/{attributesType}/latest` resolves
/// in memory and is then served like any version. A publish or a delete of the type removes
/// its entry (directly on this replica, from the change feed on the others).
///
/// A lookup that raced a publish must not put the superseded version back: callers take a
/// `generation` before reading the database, and `remember` ignores answers read before the
/// latest invalidation of the key's stripe.
final class LatestVersions: Sendable {
    /// Types are identified by the bytes of their name: Swift `String` equality would make two
    /// names that PostgreSQL keeps apart (`é` and `e` + U+0301) share an entry.
    struct Key: Sendable, Hashable {
        let applicationID: Int64
        let attributesType: [UInt8]

        init(applicationID: Int64, attributesType: String) {
            self.applicationID = applicationID
            self.attributesType = Array(attributesType.utf8)
        }
    }

    private struct Stripe: Sendable {
        var versions: [Key: Int32] = [:]
        var generation = 0
    }

    private let stripes = Striped<Stripe>(count: 16) { Stripe() }
    private let maxEntriesPerStripe: Int
    let isEnabled: Bool
    private let fence: CacheFence

    /// - Parameter maxEntries: when a stripe is full it starts over, which keeps a flood of
    ///   distinct types from growing memory.
    init(enabled: Bool, maxEntries: Int = 100_000, fence: CacheFence = CacheFence()) {
        isEnabled = enabled
        self.fence = fence
        maxEntriesPerStripe = max(1, maxEntries / 16)
    }

    func version(_ key: Key) -> Int32? {
        guard isEnabled, !fence.isRaised else { return nil }
        return stripes.withStripe(for: key.hashValue) { $0.versions[key] }
    }

    /// The stripe's invalidation count, to take before reading the newest version from the database.
    func generation(_ key: Key) -> Int {
        stripes.withStripe(for: key.hashValue) { $0.generation }
    }

    func remember(_ version: Int32, for key: Key, readAt generation: Int) {
        guard isEnabled, !fence.isRaised else { return }
        let limit = maxEntriesPerStripe
        stripes.withStripe(for: key.hashValue) { stripe in
            guard stripe.generation == generation else { return }
            if stripe.versions.count >= limit { stripe.versions.removeAll(keepingCapacity: true) }
            stripe.versions[key] = version
        }
    }

    func invalidate(_ key: Key) {
        stripes.withStripe(for: key.hashValue) { stripe in
            stripe.generation &+= 1
            stripe.versions[key] = nil
        }
    }

    func flush() {
        stripes.forEach { stripe in
            stripe.generation &+= 1
            stripe.versions.removeAll()
        }
    }
}
