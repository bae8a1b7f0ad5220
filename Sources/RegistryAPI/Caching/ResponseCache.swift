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

    /// Independent LRU shards, chosen by version, so concurrent hits on different versions do
    /// not wait for one lock; both kinds of a version share a shard.
    private let shards: [ByteBoundedCache<Key, Entry>]
    private let invalidations = Atomic<Int>(0)

    /// Shards of at least 4 MiB each, so even a 64 KB schema's body fits one comfortably.
    private static let minimumShardBytes = 4 << 20

    /// - Parameter capacityBytes: 0 disables caching (every request reads the database).
    public init(capacityBytes: Int) {
        let count = min(16, max(1, capacityBytes / Self.minimumShardBytes))
        shards = (0..<count).map { _ in ByteBoundedCache(capacityBytes: capacityBytes / count) }
    }

    public var isEnabled: Bool { shards[0].capacityBytes > 0 }

    public var epoch: Int { invalidations.load(ordering: .acquiring) }

    func entry(_ key: Key) -> Entry? { shard(key.applicationID, key.attributesType, key.version).value(for: key) }

    func insert(_ entry: Entry, for key: Key, readAt epoch: Int) {
        guard epoch == self.epoch else { return }
        shard(key.applicationID, key.attributesType, key.version)
            .insert(entry, for: key, cost: entry.body.count + entry.etag.utf8.count + key.attributesType.utf8.count + 64)
    }

    /// Forgets both bodies of one version.
    public func invalidate(applicationID: Int64, attributesType: String, version: Int32) {
        invalidations.add(1, ordering: .releasing)
        shard(applicationID, attributesType, version).removeAll {
            $0.applicationID == applicationID && $0.attributesType == attributesType && $0.version == version
        }
    }

    /// Forgets everything (notifications may have been missed).
    public func flush() {
        invalidations.add(1, ordering: .releasing)
        for shard in shards { shard.removeAll() }
    }

    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        var total = (bytes: 0, entries: 0, hits: 0, misses: 0)
        for shard in shards {
            let figures = shard.statistics
            total.bytes += figures.bytes
            total.entries += figures.entries
            total.hits += figures.hits
            total.misses += figures.misses
        }
        return total
    }

    private func shard(_ applicationID: Int64, _ attributesType: String, _ version: Int32) -> ByteBoundedCache<Key, Entry> {
        var hasher = Hasher()
        hasher.combine(applicationID)
        hasher.combine(attributesType)
        hasher.combine(version)
        return shards[Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))]
    }
}
