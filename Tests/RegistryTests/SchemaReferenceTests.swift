import Registry
import Testing

/// Local `$ref`s are URI fragments: their JSON pointer may be percent-encoded.
@Suite struct SchemaReferenceTests {
    static let document: SchemaDocument = {
        let text = #"""
            {"type":"object","properties":{"a/b":{"type":"integer"},"100%":{"type":"boolean"},"x%C3":{"type":"null"}},
             "$defs":{"My Type":{"type":"string"},"Café":{"type":"number"}}}
            """#
        return try! SchemaRules.validate(text)
    }()

    @Test func aPercentEncodedPointerIsDecodedBeforeItIsRead() {
        #expect(Self.document.resolve(reference: "#/$defs/My%20Type") == ["type": "string"])
        #expect(Self.document.resolve(reference: "#/$defs/Caf%C3%A9") == ["type": "number"])
        #expect(Self.document.resolve(reference: "#/properties/a~1b") == ["type": "integer"])
        #expect(Self.document.resolve(reference: "#/properties/a%7E1b") == ["type": "integer"])
        #expect(Self.document.resolve(reference: "#/%24defs/My%20Type") == ["type": "string"])
    }

    @Test func aPointerWhoseEncodingIsInvalidIsReadAsWritten() {
        #expect(Self.document.resolve(reference: "#/properties/100%") == ["type": "boolean"])
        #expect(Self.document.resolve(reference: "#/properties/x%C3") == ["type": "null"])
        #expect(Self.document.resolve(reference: "#/$defs/My%2") == nil)
    }
}
