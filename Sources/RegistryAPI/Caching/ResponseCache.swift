import Registry
import Striping

/// Rendered bodies of published versions and their forms. Both change only when the version's
/// state changes or it is deleted, so they are served from memory with their ETag; such a
/// change anywhere removes them here (directly on this replica, from the change feed on the
/// others). A disabled version is never cached.
///
/// A fetch that raced a delete must not put the deleted version back: callers take a
/// `CacheGuard` ticket before reading the database and `insert` keeps only what it admits.
public final class ResponseCache: Sendable {
    public enum Kind: Sendable, Hashable { case schema, form }

    /// The type name is keyed by its bytes: `Caf\u{E9}` and `Cafe\u{301}` are two types.
    public struct Key: Sendable, Hashable {
        let applicationID: Int64
        let attributesType: ExactName
        let version: Int32
        let kind: Kind

        init(applicationID: Int64, attributesType: String, version: Int32, kind: Kind) {
            self.applicationID = applicationID
            self.attributesType = ExactName(attributesType)
            self.version = version
            self.kind = kind
        }
    }

    public struct Entry: Sendable {
        public let body: [UInt8]
        public let etag: String
        /// Headers the version's state adds (`Deprecation`, `Sunset`); empty when active.
        public let notices: [(name: String, value: String)]

        init(body: [UInt8], etag: String, notices: [(name: String, value: String)] = []) {
            self.body = body
            self.etag = etag
            self.notices = notices
        }
    }

    /// What one entry costs the process, counted against the capacity: the body's and tag's
    /// heap blocks, the notices', the type name's, and the cache's own per-entry bookkeeping.
    static func cost(of entry: Entry, for key: Key) -> Int {
        HeapSize.of(entry.body) + HeapSize.of(entry.etag) + HeapSize.of(key.attributesType.text)
            + entry.notices.reduce(0) { $0 + HeapSize.of($1.name) + HeapSize.of($1.value) }
            + ByteBoundedCache<Key, Entry>.entryOverhead
    }

    /// Independent LRU shards, chosen by version, so concurrent hits on different versions do
    /// not wait for one lock; both kinds of a version share a shard.
    private let shards: [ByteBoundedCache<Key, Entry>]
    private let cacheGuard: CacheGuard

    /// The hottest entries again, per thread (event loops serve nearly all hits): hits on a
    /// handful of popular versions would otherwise all queue on one shard's lock (the LRU moves
    /// an entry on every hit). Bodies are shared arrays, so this holds references, bounded by
    /// bytes per thread.
    /// An entry the shards evicted may still be held here, so the stripes' bytes are taken out
    /// of the capacity: at most 1/64 of it per stripe, and no more than 256 KiB.
    private let hot: Striped<HotEntries>
    private static let hotStripes = 16

    private struct HotEntries: Sendable {
        let maxBytes: Int
        var entries: [Key: Entry] = [:]
        var bytes = 0

        mutating func add(_ entry: Entry, for key: Key) {
            guard entries[key] == nil, entry.body.count <= maxBytes else { return }
            if bytes + entry.body.count > maxBytes {
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            entries[key] = entry
            bytes += entry.body.count
        }

        mutating func remove(_ key: Key) {
            if let removed = entries.removeValue(forKey: key) { bytes -= removed.body.count }
        }
    }

    /// Shards of at least 4 MiB each, so even a 64 KB schema's body fits one comfortably.
    private static let minimumShardBytes = 4 << 20

    /// - Parameter capacityBytes: everything the cache may hold, bookkeeping included; 0
    ///   disables caching (every request reads the database).
    public convenience init(capacityBytes: Int) {
        self.init(capacityBytes: capacityBytes, guardedBy: CacheGuard())
    }

    /// - Parameter cacheGuard: shared with `latest`; decides what may be served and kept.
    init(capacityBytes: Int, guardedBy cacheGuard: CacheGuard) {
        self.cacheGuard = cacheGuard
        let capacityBytes = max(0, capacityBytes)
        let hotBytes = min(256 << 10, capacityBytes / 64)
        hot = Striped(count: Self.hotStripes) { HotEntries(maxBytes: hotBytes) }
        let shardBytes = capacityBytes - hotBytes * Self.hotStripes
        let count = min(16, max(1, shardBytes / Self.minimumShardBytes))
        shards = (0..<count).map { _ in ByteBoundedCache(capacityBytes: shardBytes / count) }
    }

    /// A ticket for filling `key` (`insert`), taken before its body is read.
    func ticket(_ key: Key) -> CacheGuard.Ticket {
        cacheGuard.ticket(applicationID: key.applicationID, attributesType: key.attributesType, version: key.version)
    }

    func entry(_ key: Key) -> Entry? {
        guard cacheGuard.isOpen else { return nil }
        if let entry = hot.withThreadStripe({ $0.entries[key] }) { return entry }
        let ticket = ticket(key)
        guard let entry = shard(key.applicationID, key.attributesType, key.version).value(for: key)
        else { return nil }
        // Same rule as `insert`, checked under the stripe's lock.
        hot.withThreadStripe { hot in
            if cacheGuard.admits(ticket) { hot.add(entry, for: key) }
        }
        return entry
    }

    /// Counts a body that was not cached and is read from the store.
    func recordMiss(_ key: Key) {
        shard(key.applicationID, key.attributesType, key.version).recordMiss()
    }

    /// Keeps `entry` if the guard admits `ticket`. A body with spare capacity (as rendering
    /// leaves it) is stored in a block of its exact size, so the cache holds no slack.
    func insert(_ entry: Entry, for key: Key, readAt ticket: CacheGuard.Ticket) {
        guard cacheGuard.admits(ticket) else { return }
        let stored = entry.body.capacity > entry.body.count ? Entry(body: HeapSize.exact(entry.body), etag: entry.etag, notices: entry.notices) : entry
        shard(key.applicationID, key.attributesType, key.version).insert(
            stored, for: key, cost: Self.cost(of: stored, for: key), if: { cacheGuard.admits(ticket) })
    }

    /// Forgets both bodies of one version.
    func invalidate(applicationID: Int64, attributesType: String, version: Int32) {
        let name = ExactName(attributesType)
        cacheGuard.noteChange(applicationID: applicationID, attributesType: name, version: version)
        shard(applicationID, name, version).removeAll {
            $0.applicationID == applicationID && $0.attributesType == name && $0.version == version
        }
        for kind in [Kind.schema, .form] {
            let key = Key(applicationID: applicationID, attributesType: attributesType, version: version, kind: kind)
            hot.forEach { $0.remove(key) }
        }
    }

    /// Forgets everything (changes may have been missed).
    func flush() {
        cacheGuard.noteFlush()
        for shard in shards { shard.removeAll() }
        hot.forEach { $0 = HotEntries(maxBytes: $0.maxBytes) }
    }

    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        shards.reduce(into: (bytes: 0, entries: 0, hits: 0, misses: 0)) { total, shard in
            let figures = shard.statistics
            total = (total.bytes + figures.bytes, total.entries + figures.entries, total.hits + figures.hits, total.misses + figures.misses)
        }
    }

    private func shard(_ applicationID: Int64, _ attributesType: ExactName, _ version: Int32) -> ByteBoundedCache<Key, Entry> {
        var hasher = Hasher()
        hasher.combine(applicationID)
        hasher.combine(attributesType)
        hasher.combine(version)
        return shards[Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))]
    }
}
