import Registry
import Synchronization

/// The one race guard of the caches that a change makes stale: rendered versions and forms,
/// and `latest`. A fill takes a `Ticket` for what it fills (a version's bodies, or a type's
/// `latest`) before it reads the database and keeps what it read only if no change to that
/// was forgotten since and the fence is down.
/// The check runs under the lock of the cache being filled, and a change is counted before
/// its entries are removed under that lock, so a fill either sees the change or is removed
/// by it: a read that raced a publish, delete or state change never puts the old answer back.
///
/// Counted per version and per type's `latest`, in two sets of stripes, so a burst of
/// publishes, which move only `latest`, never keeps the versions' bodies from being cached.
final class CacheGuard: Sendable {
    struct Ticket: Sendable {
        fileprivate let counter: Counter
        fileprivate let count: Int
    }

    fileprivate final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// While raised nothing is served or kept (`CacheFence`).
    let fence: CacheFence
    private let versions: [Counter]
    private let latest: [Counter]

    init(fence: CacheFence = CacheFence(), stripes: Int = 64) {
        self.fence = fence
        versions = (0..<max(1, stripes)).map { _ in Counter() }
        latest = (0..<max(1, stripes)).map { _ in Counter() }
    }

    /// Whether a cached answer may be served now.
    var isOpen: Bool { !fence.isRaised }

    /// To take before reading what a fill will keep: `version`'s bodies, or with nil the
    /// type's `latest`.
    func ticket(applicationID: Int64, attributesType: ExactName, version: Int32?) -> Ticket {
        let counter = self.counter(applicationID, attributesType, version)
        return Ticket(counter: counter, count: counter.value.load(ordering: .acquiring))
    }

    /// True when nothing of the ticket's type changed since it was taken and the fence is down.
    func admits(_ ticket: Ticket) -> Bool {
        ticket.counter.value.load(ordering: .acquiring) == ticket.count && !fence.isRaised
    }

    /// A change of `version`'s bodies, or with nil of the type's `latest`: to call before the
    /// entries are removed.
    func noteChange(applicationID: Int64, attributesType: ExactName, version: Int32?) {
        counter(applicationID, attributesType, version).value.add(1, ordering: .sequentiallyConsistent)
    }

    /// Everything may have changed: to call before the caches are emptied.
    func noteFlush() {
        for counter in versions + latest { counter.value.add(1, ordering: .sequentiallyConsistent) }
    }

    private func counter(_ applicationID: Int64, _ attributesType: ExactName, _ version: Int32?) -> Counter {
        var hasher = Hasher()
        hasher.combine(applicationID)
        hasher.combine(attributesType)
        hasher.combine(version)
        let stripes = version == nil ? latest : versions
        return stripes[Int(UInt(bitPattern: hasher.finalize()) % UInt(stripes.count))]
    }
}
