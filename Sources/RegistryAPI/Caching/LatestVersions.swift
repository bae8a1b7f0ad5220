import Registry
import Striping

/// Which version is the newest live one of each type, so `…/{attributesType}/latest` resolves
/// in memory and is then served like any version. A publish, delete, state change or pin of
/// the type removes its entry (directly on this replica, from the change feed on the others).
///
/// A lookup that raced a publish must not put the superseded version back: callers take a
/// `CacheGuard` ticket before reading the database, and `remember` keeps only what it admits.
final class LatestVersions: Sendable {
    /// Types are identified by the bytes of their name: Swift `String` equality would make two
    /// names that PostgreSQL keeps apart (`é` and `e` + U+0301) share an entry.
    struct Key: Sendable, Hashable {
        let applicationID: Int64
        let attributesType: ExactName

        init(applicationID: Int64, attributesType: String) {
            self.applicationID = applicationID
            self.attributesType = ExactName(attributesType)
        }
    }

    private let stripes = Striped<[Key: Int32]>(count: 16) { [:] }
    private let maxEntriesPerStripe: Int
    let isEnabled: Bool
    private let cacheGuard: CacheGuard

    /// - Parameter maxEntries: when a stripe is full it starts over, which keeps a flood of
    ///   distinct types from growing memory.
    /// - Parameter cacheGuard: shared with the response cache.
    init(enabled: Bool, maxEntries: Int = 100_000, guardedBy cacheGuard: CacheGuard = CacheGuard()) {
        isEnabled = enabled
        self.cacheGuard = cacheGuard
        maxEntriesPerStripe = max(1, maxEntries / 16)
    }

    func version(_ key: Key) -> Int32? {
        guard isEnabled, cacheGuard.isOpen else { return nil }
        return stripes.withStripe(for: key.hashValue) { $0[key] }
    }

    /// A ticket for `remember`, taken before the newest version is read from the database.
    func ticket(_ key: Key) -> CacheGuard.Ticket {
        cacheGuard.ticket(applicationID: key.applicationID, attributesType: key.attributesType, version: nil)
    }

    func remember(_ version: Int32, for key: Key, readAt ticket: CacheGuard.Ticket) {
        guard isEnabled else { return }
        let limit = maxEntriesPerStripe
        stripes.withStripe(for: key.hashValue) { versions in
            guard cacheGuard.admits(ticket) else { return }
            if versions.count >= limit { versions.removeAll(keepingCapacity: true) }
            versions[key] = version
        }
    }

    func invalidate(_ key: Key) {
        cacheGuard.noteChange(applicationID: key.applicationID, attributesType: key.attributesType, version: nil)
        stripes.withStripe(for: key.hashValue) { $0[key] = nil }
    }

    func flush() {
        cacheGuard.noteFlush()
        stripes.forEach { $0.removeAll() }
    }
}
