import Registry
import Testing

/// What caches count for a value: every heap block it holds, not just its text.
@Suite struct HeapSizeTests {
    static let longName = String(repeating: "n", count: 200)
    static let longDescription = String(repeating: "d", count: 1000)

    @Test func shortStringsAreInlineAndLongOnesCostABlock() {
        #expect(HeapSize.of("fifteen bytes!!") == 0)
        #expect(HeapSize.of(Self.longName) == HeapSize.blockOverhead + 201)
    }

    @Test func anArrayCostsItsCapacityNotItsCount() {
        var numbers: [Int64] = []
        numbers.reserveCapacity(100)
        numbers.append(1)
        #expect(HeapSize.of(numbers) >= HeapSize.blockOverhead + 100 * 8)
        #expect(HeapSize.of([Int64]()) == 0)
    }

    @Test func aJSONValueCountsItsMembersListsAndTheirStrings() {
        let value = JSONValue.object(["items": .array([.string(Self.longDescription), .number("1")])])
        let members = HeapSize.of([(key: "items", value: JSONValue.null)])
        let elements = HeapSize.of([JSONValue.null, .null])
        #expect(HeapSize.of(value) == members + elements + HeapSize.of(Self.longDescription))
    }

    @Test func aDocumentCountsItsParsedTextAndDefinitionsIndex() throws {
        let text = #"{"type":"object","description":"\#(Self.longDescription)","$defs":{"\#(Self.longName)":{"type":"string"}},"#
            + ##""properties":{"a":{"$ref":"#/$defs/\##(Self.longName)"}}}"##
        let document = try SchemaRules.validate(text)
        #expect(document.heapSize >= HeapSize.of(.object(document.root)))
        // The index's key is the reference text: "#/$defs/" and the name, a block of its own.
        #expect(document.heapSize - HeapSize.of(.object(document.root)) >= HeapSize.blockOverhead + 8 + 200)
    }

    @Test func anOutlineCountsItsFieldsArraysStringsAndBoxedChildren() throws {
        let flat = CompatibilityOutline(document: try SchemaRules.validate(
            #"{"type":"object","properties":{"\#(Self.longName)":{"type":"string"}}}"#))
        let nested = CompatibilityOutline(document: try SchemaRules.validate(
            #"{"type":"object","properties":{"\#(Self.longName)":{"type":"object","properties":{"b":{"type":"string"}}}}}"#))
        // The field's array block, its name and its path (which holds the name).
        #expect(flat.heapSize >= HeapSize.of(flat.content) + 2 * (HeapSize.blockOverhead + 200))
        // The child: a boxed array of one field, whose path again holds the parent's name.
        #expect(nested.heapSize - flat.heapSize >= HeapSize.boxOverhead + HeapSize.of(nested.content) + HeapSize.blockOverhead + 200)
    }
}
