import Registry
import Testing

@testable import RegistryAPI

@Suite struct SchemaDocumentCacheTests {
    static func schema(_ index: Int) -> String {
        #"{"type":"object","properties":{"field\#(index)":{"type":"string"}}}"#
    }

    @Test func aTextIsValidatedOnceAndKeyedByItsSHA256() throws {
        let cache = SchemaDocumentCache(capacityBytes: 1 << 20)
        let text = Self.schema(1)
        let first = try cache.validated(text)
        let second = try cache.validated(text)
        #expect(first.contentHash == SHA256.hash(text.utf8))
        #expect(try first.document == SchemaRules.validate(text))
        #expect(second.document == first.document)
        #expect(cache.statistics.entries == 1)
        #expect(try cache.document(text, contentHash: first.contentHash) == first.document)
        #expect(cache.statistics.entries == 1)
    }

    @Test func staysWithinItsBytesEvictingTheLeastRecentlyUsed() throws {
        let text = Self.schema(99)
        let capacity = SchemaDocumentCache.cost(of: try SchemaRules.validate(text), for: DigestKey(bytes: SHA256.hash(text.utf8))) * 4
        let cache = SchemaDocumentCache(capacityBytes: capacity)
        for index in 0..<100 { _ = try cache.validated(Self.schema(index)) }
        #expect(cache.statistics.bytes <= capacity)
        #expect(cache.statistics.entries == 4)
    }

    @Test func anEntryCountsTheDocumentsBlocksItsKeyAndTheCachesBookkeeping() throws {
        let cache = SchemaDocumentCache(capacityBytes: 1 << 20)
        let validated = try cache.validated(Self.schema(1))
        let overhead = ByteBoundedCache<DigestKey, SchemaDocument>.entryOverhead
        #expect(overhead >= MemoryLayout<DigestKey>.stride + MemoryLayout<SchemaDocument>.stride)
        #expect(validated.document.heapSize > Self.schema(1).utf8.count)
        #expect(cache.statistics.bytes == validated.document.heapSize + HeapSize.of(validated.contentHash) + overhead)
    }

    @Test func textsThatBreakTheRulesAreRefusedAndNotRemembered() {
        let cache = SchemaDocumentCache(capacityBytes: 1 << 20)
        #expect(throws: RegistryError.self) { try cache.validated(#"{"type":"object","properties":[]}"#) }
        #expect(throws: RegistryError.self) { try cache.validated("not json") }
        #expect(cache.statistics.entries == 0)
    }

    @Test func zeroCapacityValidatesEveryTime() throws {
        let cache = SchemaDocumentCache(capacityBytes: 0)
        #expect(try cache.validated(Self.schema(1)).document == (try SchemaRules.validate(Self.schema(1))))
        #expect(cache.statistics.entries == 0)
    }
}
