import Registry
import Synchronization

/// Compatibility outlines by the SHA-256 of their schema text, so a type's earlier versions are
/// read from the database, parsed and outlined once per replica, not on every publish or dry
/// run: a comparison then costs microseconds. Content-addressed, so an entry is never stale.
/// Bounded by what its entries cost the process, least recently used first out.
final class CompatibilityOutlineCache: Sendable {
    private let outlines: ByteBoundedCache<DigestKey, CompatibilityOutline>

    /// What one entry costs, counted against the capacity: the outline's heap blocks, the key's,
    /// and the cache's own per-entry bookkeeping. An outline holds about twice its text.
    static func cost(of outline: CompatibilityOutline, for key: DigestKey) -> Int {
        outline.heapSize + HeapSize.of(key.bytes) + ByteBoundedCache<DigestKey, CompatibilityOutline>.entryOverhead
    }

    /// - Parameter capacityBytes: memory for outlines, bookkeeping included; 0 disables the cache.
    init(capacityBytes: Int) {
        outlines = ByteBoundedCache(capacityBytes: capacityBytes)
    }

    /// The outline of a schema that just passed the rules.
    func outline(of schema: ValidatedSchema) -> CompatibilityOutline {
        cached(schema.contentHash) { CompatibilityOutline(document: schema.document) }!
    }

    /// The outlines of one review: what the store is told it need not read (`needsText`) is
    /// held here from that moment, so an eviction in between cannot lose it.
    func forReview(limit: Int, mayBeRefused: Bool) -> ReviewOutlines {
        ReviewOutlines(cache: self, limit: limit, mayBeRefused: mayBeRefused)
    }

    fileprivate func lookup(_ contentHash: [UInt8]) -> CompatibilityOutline? {
        outlines.value(for: DigestKey(bytes: contentHash))
    }

    /// An earlier version's outline, validating its text only when not cached. The document is
    /// not kept: the outline is all a comparison needs. Nil for a text that no longer passes
    /// the rules, or that was not read and is not cached (it is skipped).
    func compared(_ schema: EarlierSchema) -> ComparedVersion? {
        let outline = cached(schema.contentHash) {
            schema.jsonSchema.flatMap { try? SchemaRules.readStored($0) }.map(CompatibilityOutline.init(document:))
        }
        return outline.map { ComparedVersion(version: schema.version, contentHash: schema.contentHash, outline: $0) }
    }

    private func cached(_ contentHash: [UInt8], make: () -> CompatibilityOutline?) -> CompatibilityOutline? {
        let key = DigestKey(bytes: contentHash)
        if let outline = outlines.value(for: key) { return outline }
        guard let outline = make() else { return nil }
        outlines.insert(outline, for: key, cost: Self.cost(of: outline, for: key))
        return outline
    }

    /// Bytes held and entries, for tests and metrics.
    var statistics: (bytes: Int, entries: Int) {
        let statistics = outlines.statistics
        return (statistics.bytes, statistics.entries)
    }
}

/// The outlines one publish or dry run compares, and the `Comparison` to give the store.
final class ReviewOutlines: Sendable {
    private let cache: CompatibilityOutlineCache
    private let held = Mutex<[DigestKey: CompatibilityOutline]>([:])
    private let limit: Int
    private let mayBeRefused: Bool

    fileprivate init(cache: CompatibilityOutlineCache, limit: Int, mayBeRefused: Bool) {
        self.cache = cache
        self.limit = limit
        self.mayBeRefused = mayBeRefused
    }

    /// Asks the store for the texts of earlier versions whose outline is not cached.
    var comparison: Comparison {
        Comparison(limit: limit, mayBeRefused: mayBeRefused) { [self] contentHash in
            guard let outline = cache.lookup(contentHash) else { return true }
            held.withLock { $0[DigestKey(bytes: contentHash)] = outline }
            return false
        }
    }

    /// The outline of the submitted schema.
    func outline(of schema: ValidatedSchema) -> CompatibilityOutline { cache.outline(of: schema) }

    /// An earlier version as compared, or nil to skip it.
    func compared(_ schema: EarlierSchema) -> ComparedVersion? {
        if let outline = held.withLock({ $0[DigestKey(bytes: schema.contentHash)] }) {
            return ComparedVersion(version: schema.version, contentHash: schema.contentHash, outline: outline)
        }
        return cache.compared(schema)
    }
}
