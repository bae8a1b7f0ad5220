import Registry

/// The field-by-field diff of two published texts, by the SHA-256 of both and the older
/// version's number (its problems name it), so a diff is computed once per replica: parsing
/// and comparing two 64 KB texts takes milliseconds, and journey builders ask again and again.
/// Content-addressed, so an entry is never stale whatever is published or deleted; which
/// versions exist and which is previous always comes from the database. Bounded by what its
/// entries cost the process, least recently used first out.
final class DiffCache: Sendable {
    struct Key: Hashable, Sendable {
        let older: DigestKey
        let newer: DigestKey
        let olderVersion: Int32
    }

    private let diffs: ByteBoundedCache<Key, JSONObject>

    /// What one entry costs: the rendered fields' heap blocks, both keys', and the cache's own
    /// per-entry bookkeeping.
    static func cost(of fields: JSONObject, for key: Key) -> Int {
        HeapSize.of(fields) + HeapSize.of(key.older.bytes) + HeapSize.of(key.newer.bytes)
            + ByteBoundedCache<Key, JSONObject>.entryOverhead
    }

    /// - Parameter capacityBytes: memory for diffs, bookkeeping included; 0 disables the cache.
    init(capacityBytes: Int) {
        diffs = ByteBoundedCache(capacityBytes: capacityBytes)
    }

    /// The key of the diff from `older` to `newer`.
    static func key(from older: SchemaVersion, to newer: SchemaVersion) -> Key {
        Key(older: DigestKey(bytes: older.contentHashOrComputed), newer: DigestKey(bytes: newer.contentHashOrComputed), olderVersion: older.version)
    }

    func fields(for key: Key) -> JSONObject? { diffs.value(for: key) }

    func insert(_ fields: JSONObject, for key: Key) {
        diffs.insert(fields, for: key, cost: Self.cost(of: fields, for: key))
    }

    /// Entries held and lookups answered, for tests.
    var statistics: (entries: Int, hits: Int) {
        let statistics = diffs.statistics
        return (statistics.entries, statistics.hits)
    }
}

extension SchemaVersion {
    /// The stored SHA-256 of the text, or the hash computed here for a row that has none.
    var contentHashOrComputed: [UInt8] { contentHash ?? SHA256.hash(jsonSchema.utf8) }
}
