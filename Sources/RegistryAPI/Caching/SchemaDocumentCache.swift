import Registry

/// A schema text that passed the schema rules, with the SHA-256 of its UTF-8 bytes (the same
/// hash the database stores as `schema_sha256`).
struct ValidatedSchema: Sendable {
    let document: SchemaDocument
    let contentHash: [UInt8]
}

/// Validated schema documents by the SHA-256 of their text, so that publishing does not parse
/// and validate the same texts again and again: a type's earlier texts on every publish, and
/// texts that clients publish over and over.
///
/// Content-addressed: a text's document never changes, so an entry can never be stale, on this
/// replica or any other, whatever is published or deleted meanwhile. Which versions exist is
/// never cached here; that always comes from the database. Bounded by what its entries cost
/// the process, least recently used first out.
final class SchemaDocumentCache: Sendable {
    private let documents: ByteBoundedCache<DigestKey, SchemaDocument>

    /// What one entry costs, counted against the capacity: the document's heap blocks (about
    /// three and a half times its text: a tree of small values and strings), the key's, and the
    /// cache's own per-entry bookkeeping.
    static func cost(of document: SchemaDocument, for key: DigestKey) -> Int {
        document.heapSize + HeapSize.of(key.bytes) + ByteBoundedCache<DigestKey, SchemaDocument>.entryOverhead
    }

    /// - Parameter capacityBytes: memory for documents, bookkeeping included; 0 disables the cache.
    init(capacityBytes: Int) {
        documents = ByteBoundedCache(capacityBytes: capacityBytes)
    }

    /// `text` checked against the schema rules (400 when it breaks one), hashed first so a text
    /// seen before is not parsed again.
    func validated(_ text: String) throws(RegistryError) -> ValidatedSchema {
        let hash = SHA256.hash(text.utf8)
        let document = try document(text, contentHash: hash)
        if case .failure(let error) = document.compiled { throw SchemaRules.refusal(error) }
        return ValidatedSchema(document: document, contentHash: hash)
    }

    /// The document of `text`, whose SHA-256 the caller knows (from the database): validated
    /// on first use only. Texts that break the shape rules are not remembered; a text that no
    /// longer compiles is (stored versions stay readable), and `validated` refuses it.
    func document(_ text: String, contentHash: [UInt8]) throws(RegistryError) -> SchemaDocument {
        let key = DigestKey(bytes: contentHash)
        if let document = documents.value(for: key) { return document }
        let document = try SchemaRules.readStored(text)
        documents.insert(document, for: key, cost: Self.cost(of: document, for: key))
        return document
    }

    /// Bytes held and entries, for tests and metrics.
    var statistics: (bytes: Int, entries: Int) {
        let statistics = documents.statistics
        return (statistics.bytes, statistics.entries)
    }
}
