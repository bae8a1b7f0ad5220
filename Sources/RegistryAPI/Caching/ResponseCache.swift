import Registry
import Synchronization

/// Rendered bodies of published versions and their forms. Both never change until the
/// version is deleted, so they are served from memory with their ETag; a delete anywhere
/// removes them here (directly on this replica, through NOTIFY on the others).
///
/// A fetch that raced a delete must not put the deleted version back: callers take an
/// `epoch` before reading the database and `insert` ignores bodies read before the latest
/// invalidation.
public final class ResponseCache: Sendable {
    public enum Kind: Sendable, Hashable { case schema, form }

    public struct Key: Sendable, Hashable {
        let applicationID: Int64
        let attributesType: String
        let version: Int32
        let kind: Kind
    }

    public struct Entry: Sendable {
        public let body: [UInt8]
        public let etag: String
    }

    private let cache: ByteBoundedCache<Key, Entry>
    private let invalidations = Atomic<Int>(0)

    /// - Parameter capacityBytes: 0 disables caching (every request reads the database).
    public init(capacityBytes: Int) {
        cache = ByteBoundedCache(capacityBytes: capacityBytes)
    }

    public var isEnabled: Bool { cache.capacityBytes > 0 }

    public var epoch: Int { invalidations.load(ordering: .acquiring) }

    func entry(_ key: Key) -> Entry? { cache.value(for: key) }

    func insert(_ entry: Entry, for key: Key, readAt epoch: Int) {
        guard epoch == self.epoch else { return }
        cache.insert(entry, for: key, cost: entry.body.count + entry.etag.utf8.count + key.attributesType.utf8.count + 64)
    }

    /// Forgets both bodies of one version.
    public func invalidate(applicationID: Int64, attributesType: String, version: Int32) {
        invalidations.add(1, ordering: .releasing)
        cache.removeAll { $0.applicationID == applicationID && $0.attributesType == attributesType && $0.version == version }
    }

    /// Forgets everything (notifications may have been missed).
    public func flush() {
        invalidations.add(1, ordering: .releasing)
        cache.removeAll()
    }

    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) { cache.statistics }
}
