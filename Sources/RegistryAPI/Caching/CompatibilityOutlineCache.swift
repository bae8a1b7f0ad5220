import Registry

/// Compatibility outlines by the SHA-256 of their schema text, so a type's earlier versions are
/// parsed and outlined once per replica, not on every publish or dry run: a comparison then
/// costs microseconds. Content-addressed, so an entry is never stale. Bounded by the outlines'
/// estimated memory, least recently used first out.
final class CompatibilityOutlineCache: Sendable {
    private let outlines: ByteBoundedCache<DigestKey, CompatibilityOutline>

    /// - Parameter capacityBytes: estimated memory for outlines; 0 disables the cache.
    init(capacityBytes: Int) {
        outlines = ByteBoundedCache(capacityBytes: capacityBytes)
    }

    /// The outline of a schema that just passed the rules.
    func outline(of schema: ValidatedSchema) -> CompatibilityOutline {
        cached(schema.contentHash) { CompatibilityOutline(document: schema.document) }!
    }

    /// An earlier version's outline, validating its text only when not cached. The document is
    /// not kept: the outline is all a comparison needs. Nil for a text that no longer passes
    /// the rules (it is skipped).
    func compared(_ schema: EarlierSchema) -> ComparedVersion? {
        let outline = cached(schema.contentHash) {
            (try? SchemaRules.validate(schema.jsonSchema)).map(CompatibilityOutline.init(document:))
        }
        return outline.map { ComparedVersion(version: schema.version, contentHash: schema.contentHash, outline: $0) }
    }

    private func cached(_ contentHash: [UInt8], make: () -> CompatibilityOutline?) -> CompatibilityOutline? {
        let key = DigestKey(bytes: contentHash)
        if let outline = outlines.value(for: key) { return outline }
        guard let outline = make() else { return nil }
        outlines.insert(outline, for: key, cost: outline.estimatedBytes)
        return outline
    }

    /// Estimated bytes held and entries, for tests and metrics.
    var statistics: (bytes: Int, entries: Int) {
        let statistics = outlines.statistics
        return (statistics.bytes, statistics.entries)
    }
}
