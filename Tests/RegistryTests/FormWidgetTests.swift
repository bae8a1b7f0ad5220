import Registry
import Testing

/// The `type` and `widget` a form gives each kind of schema field, one rule per test.
@Suite struct FormWidgetTests {
    private func kind(_ schema: String) throws -> (FormFieldType, FormWidget) {
        let field = try FormFixture.field(schema)
        return (field.type, field.widget)
    }

    @Test func plainStringIsText() throws {
        #expect(try kind(#"{"type":"string"}"#) == (.string, .text))
    }

    @Test func stringWithMaxLengthOver200IsTextarea() throws {
        #expect(try kind(#"{"type":"string","maxLength":201}"#) == (.string, .textarea))
    }

    @Test func stringWithMaxLengthOf200IsText() throws {
        #expect(try kind(#"{"type":"string","maxLength":200}"#) == (.string, .text))
    }

    @Test func stringWithTextareaFormatIsTextarea() throws {
        #expect(try kind(#"{"type":"string","format":"textarea"}"#) == (.string, .textarea))
    }

    @Test func numberIsNumber() throws {
        #expect(try kind(#"{"type":"number"}"#) == (.number, .number))
    }

    @Test func integerIsNumberWidgetWithIntegerType() throws {
        #expect(try kind(#"{"type":"integer"}"#) == (.integer, .number))
    }

    @Test func booleanIsToggle() throws {
        #expect(try kind(#"{"type":"boolean"}"#) == (.boolean, .toggle))
    }

    @Test func enumIsSelect() throws {
        #expect(try kind(#"{"type":"string","enum":["a","b"]}"#) == (.string, .select))
    }

    @Test func singleConstIsSelect() throws {
        let field = try FormFixture.field(#"{"type":"string","const":"boarding"}"#)
        #expect((field.type, field.widget) == (.string, .select))
        #expect(field.options.map(\.value) == ["boarding"])
        #expect(field.options.map(\.label) == ["Boarding"])
    }

    @Test func enumWinsOverFormat() throws {
        #expect(try kind(#"{"type":"string","format":"uri","enum":["https://a"]}"#) == (.string, .select))
    }

    @Test(arguments: ["date-time", "date", "time"])
    func dateAndTimeFormatsAreDatetime(format: String) throws {
        #expect(try kind(#"{"type":"string","format":"\#(format)"}"#) == (.string, .datetime))
    }

    @Test func uriFormatIsUrl() throws {
        #expect(try kind(#"{"type":"string","format":"uri"}"#) == (.string, .url))
    }

    @Test func colorFormatIsColor() throws {
        #expect(try kind(#"{"type":"string","format":"color"}"#) == (.string, .color))
    }

    @Test func formatWinsOverLongMaxLength() throws {
        #expect(try kind(#"{"type":"string","format":"uri","maxLength":2000}"#) == (.string, .url))
    }

    @Test func unknownFormatIsText() throws {
        #expect(try kind(#"{"type":"string","format":"email"}"#) == (.string, .text))
    }

    @Test func dateTimeFormatOnANumberWithoutSwiftDateStaysNumber() throws {
        #expect(try kind(#"{"type":"number","format":"date-time"}"#) == (.number, .number))
    }

    @Test func objectWithPropertiesIsGroupOfNestedFields() throws {
        let field = try FormFixture.field(#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}}}"#)
        #expect((field.type, field.widget) == (.object, .group))
        #expect(field.children.fields.map(\.name) == ["a", "b"])
    }

    @Test func objectWithoutPropertiesIsObjectInJsonEditor() throws {
        #expect(try kind(#"{"type":"object"}"#) == (.object, .json))
    }

    @Test func objectWithEmptyPropertiesIsObjectInJsonEditor() throws {
        #expect(try kind(#"{"type":"object","properties":{}}"#) == (.object, .json))
    }

    @Test func arrayIsListWithOneItemDescriptor() throws {
        let field = try FormFixture.field(#"{"type":"array","items":{"type":"string","format":"uri"}}"#)
        #expect((field.type, field.widget) == (.array, .list))
        let item = try #require(field.children.item)
        #expect(item.name == "item")
        #expect(item.path == "content-state.x[]")
        #expect(item.isRequired == false)
        #expect((item.type, item.widget) == (.string, .url))
    }

    @Test func listItemIsNeverRequiredEvenWhenItsSchemaIsAnObjectWithRequiredFields() throws {
        let field = try FormFixture.field(
            #"{"type":"array","items":{"type":"object","properties":{"gate":{"type":"string"}},"required":["gate"]}}"#)
        let item = try #require(field.children.item)
        #expect(item.isRequired == false)
        #expect(item.children.fields.map(\.path) == ["content-state.x[].gate"])
        #expect(item.children.fields.map(\.isRequired) == [true])
    }

    @Test func arrayWithoutItemsHasAnyItem() throws {
        let item = try #require(try FormFixture.field(#"{"type":"array"}"#).children.item)
        #expect((item.type, item.widget) == (.any, .json))
    }

    @Test func arrayWithTupleItemsHasAnyItem() throws {
        let item = try #require(try FormFixture.field(#"{"type":"array","items":[{"type":"string"}]}"#).children.item)
        #expect((item.type, item.widget) == (.any, .json))
    }

    @Test func arrayWithPrefixItemsHasAnyItem() throws {
        let item = try #require(
            try FormFixture.field(#"{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"string"}}"#)
                .children.item)
        #expect((item.type, item.widget) == (.any, .json))
    }

    @Test func enumOfStringsWithoutTypeIsStringSelect() throws {
        #expect(try kind(#"{"enum":["a","b"]}"#) == (.string, .select))
    }

    @Test func enumOfIntegersWithoutTypeIsIntegerSelect() throws {
        #expect(try kind(#"{"enum":[1,2,3]}"#) == (.integer, .select))
    }

    @Test func enumOfMixedValuesWithoutTypeIsAnySelect() throws {
        #expect(try kind(#"{"enum":["a",1,true]}"#) == (.any, .select))
        #expect(try kind(#"{"enum":[1,2.5]}"#) == (.any, .select))
    }

    @Test func nullInAnUntypedEnumMakesTheFieldNullable() throws {
        let field = try FormFixture.field(#"{"enum":["a",null]}"#)
        #expect((field.type, field.widget, field.isNullable) == (.string, .select, true))
    }

    @Test func constWithoutTypeFollowsItsValue() throws {
        #expect(try kind(#"{"const":7}"#) == (.integer, .select))
    }
}
