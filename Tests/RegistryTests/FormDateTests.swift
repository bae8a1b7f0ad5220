import Registry
import Testing

/// A Swift `Date` decoded with JSONDecoder defaults is a number of seconds since 2001-01-01,
/// marked in the schema with `"x-swift-type": "Date"`.
@Suite struct FormDateTests {
    @Test func swiftDateNumberIsDatetimeWithAppleReferenceEncoding() throws {
        let (field, fieldJSON) = try FormFixture.fieldWithJSON(#"{"type":"number","format":"date-time","x-swift-type":"Date"}"#)
        #expect((field.type, field.widget, field.encoding) == (.number, .datetime, .appleReferenceSeconds))
        #expect(
            fieldJSON
                == #"{"name":"x","path":"content-state.x","label":"X","type":"number","widget":"datetime","required":false,"constraints":{"format":"date-time"},"encoding":"apple-reference-seconds"}"#
        )
    }

    @Test func swiftDateWithoutFormatIsStillDatetime() throws {
        let field = try FormFixture.field(#"{"type":"number","x-swift-type":"Date"}"#)
        #expect((field.widget, field.encoding) == (.datetime, .appleReferenceSeconds))
    }

    @Test func nullableSwiftDateKeepsTheEncoding() throws {
        let field = try FormFixture.field(#"{"type":["number","null"],"x-swift-type":"Date"}"#)
        #expect((field.widget, field.encoding, field.isNullable) == (.datetime, .appleReferenceSeconds, true))
    }

    @Test func swiftDateAsAStringHasNoEncoding() throws {
        let (field, fieldJSON) = try FormFixture.fieldWithJSON(#"{"type":"string","format":"date-time","x-swift-type":"Date"}"#)
        #expect((field.widget, field.encoding) == (.datetime, nil))
        #expect(!fieldJSON.contains("encoding"))
    }

    @Test func otherSwiftTypesDoNotChangeTheWidget() throws {
        let field = try FormFixture.field(#"{"type":"number","x-swift-type":"Double"}"#)
        #expect((field.widget, field.encoding) == (.number, nil))
    }
}
