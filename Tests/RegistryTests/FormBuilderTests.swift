import Registry
import Testing

/// Builds forms from schema text, as the API does for a stored version: one that passed the
/// shape rules, perhaps before a later rule (every reference resolvable, keywords well formed)
/// refused such texts at publish. A form must come out of any of them.
enum FormFixture {
    static func form(_ schema: String) throws -> FormDescriptor {
        try FormBuilder.form(for: SchemaRules.readStored(schema))
    }

    /// The form object exactly as the form endpoint writes it, for application `XXXXX-XXXXX`
    /// and type `FlightAttributes`.
    static func formText(_ schema: String) throws -> String {
        var out: [UInt8] = []
        FormWriter.write(
            formOf: try SchemaRules.readStored(schema), application: "XXXXX-XXXXX", attributesType: "FlightAttributes",
            version: 2, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The content field `x` described by `fieldSchema`; `defs` becomes the root `$defs`.
    static func field(_ fieldSchema: String, defs: String? = nil) throws -> FormField {
        try #require(form(schema(withField: fieldSchema, defs: defs)).content.fields.first)
    }

    /// The JSON text of the content field `x`, as the form endpoint writes it. The endpoint
    /// writes with `JSONWriter`'s escaping and verbatim numbers, so parsing its output and
    /// writing the field again gives the field's bytes unchanged.
    static func json(_ fieldSchema: String, defs: String? = nil) throws -> String {
        let form = try JSONParser.parse(formText(schema(withField: fieldSchema, defs: defs)))
        return JSONWriter.string(try #require(form["content"]?["fields"]?.arrayValue?.first))
    }

    /// The content field `x` and its JSON text.
    static func fieldWithJSON(_ fieldSchema: String, defs: String? = nil) throws -> (FormField, String) {
        (try field(fieldSchema, defs: defs), try json(fieldSchema, defs: defs))
    }

    private static func schema(withField fieldSchema: String, defs: String?) -> String {
        let defsMember = defs.map { #","$defs":\#($0)"# } ?? ""
        return #"{"type":"object","properties":{"x":\#(fieldSchema)}\#(defsMember)}"#
    }
}

@Suite struct FormBuilderTests {
    @Test func flightAttributesExampleGivesExactlyTheDescriptorOfTheSpec() throws {
        let schema = """
            {
              "type": "object",
              "properties": {
                "gate": { "type": "string" },
                "status": { "type": "string" },
                "estimatedTime": { "type": "string" }
              },
              "attributes": {
                "properties": { "flightNumber": { "type": "string" } },
                "required": ["flightNumber"]
              }
            }
            """
        let expected = """
            {
              "form": {
                "application": "XXXXX-XXXXX",
                "attributes_type": "FlightAttributes",
                "version": 2,
                "content": {
                  "mode": "fields",
                  "fields": [
                    { "name": "gate", "path": "content-state.gate", "label": "Gate",
                      "type": "string", "widget": "text", "required": false },
                    { "name": "status", "path": "content-state.status", "label": "Status",
                      "type": "string", "widget": "text", "required": false },
                    { "name": "estimatedTime", "path": "content-state.estimatedTime",
                      "label": "Estimated time", "type": "string", "widget": "text",
                      "required": false }
                  ]
                },
                "attributes": {
                  "mode": "fields",
                  "fields": [
                    { "name": "flightNumber", "path": "attributes.flightNumber",
                      "label": "Flight number", "type": "string", "widget": "text",
                      "required": true }
                  ]
                }
              }
            }
            """
        #expect(#"{"form":\#(try FormFixture.formText(schema))}"# == JSONWriter.string(try JSONParser.parse(expected)))
    }

    @Test func fieldsFollowTheOrderOfKeysInTheSchemaText() throws {
        let form = try FormFixture.form(
            """
            {"type":"object",
             "properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},
                           "mid":{"type":"object","properties":{"zz":{"type":"string"},"aa":{"type":"string"}}}},
             "attributes":{"properties":{"omega":{"type":"string"},"beta":{"type":"string"}}}}
            """)
        #expect(form.content.fields.map(\.name) == ["zeta", "alpha", "mid"])
        #expect(form.content.fields[2].children.fields.map(\.name) == ["zz", "aa"])
        #expect(form.attributes.fields.map(\.name) == ["omega", "beta"])
    }

    @Test func contentFieldPathsStartWithContentState() throws {
        #expect(try FormFixture.field(#"{"type":"string"}"#).path == "content-state.x")
    }

    @Test func attributeFieldPathsStartWithAttributes() throws {
        let form = try FormFixture.form(#"{"type":"object","attributes":{"properties":{"flightNumber":{}}}}"#)
        #expect(form.attributes.fields.map(\.path) == ["attributes.flightNumber"])
    }

    @Test func nestedFieldPathsExtendTheParentPath() throws {
        let field = try FormFixture.field(
            #"{"type":"object","properties":{"gate":{"type":"object","properties":{"terminal":{"type":"string"}}}}}"#)
        #expect(field.children.fields[0].path == "content-state.x.gate")
        #expect(field.children.fields[0].children.fields[0].path == "content-state.x.gate.terminal")
    }

    @Test func contentFieldsAreNeverRequiredEvenWithARootRequiredList() throws {
        let form = try FormFixture.form(#"{"type":"object","properties":{"gate":{"type":"string"}},"required":["gate"]}"#)
        #expect(form.content.fields[0].isRequired == false)
    }

    @Test func attributeFieldsAreRequiredWhenListedInAttributesRequired() throws {
        let form = try FormFixture.form(
            #"{"type":"object","attributes":{"properties":{"a":{},"b":{}},"required":["b"]}}"#)
        #expect(form.attributes.fields.map(\.isRequired) == [false, true])
    }

    @Test func nestedFieldsAreRequiredFromTheirOwnObjectsRequiredList() throws {
        let field = try FormFixture.field(
            #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}"#)
        #expect(field.children.fields.map(\.isRequired) == [true, false])
    }

    @Test func attributesWithoutASectionAreFreeWithNoFields() throws {
        let schema = #"{"type":"object","properties":{"gate":{"type":"string"}}}"#
        #expect(try FormFixture.form(schema).attributes.mode == .free)
        #expect(try FormFixture.formText(schema).hasSuffix(#","attributes":{"mode":"free","fields":[]}}"#))
    }

    @Test func contentWithoutPropertiesIsFieldsModeWithNoFields() throws {
        // An object of no fields is at most `{}`, two bytes.
        #expect(try FormFixture.formText(#"{"type":"object"}"#).contains(#""content":{"mode":"fields","fields":[],"max_payload_bytes":2}"#))
    }

    @Test func attributesSectionWithEmptyPropertiesIsFieldsModeWithNoFields() throws {
        let text = try FormFixture.formText(#"{"type":"object","attributes":{"properties":{}}}"#)
        #expect(text.hasSuffix(#""attributes":{"mode":"fields","fields":[],"max_payload_bytes":2}}"#))
    }

    @Test func renderingKeepsTheKeyOrderOfTheSpecWithEveryOptionalKey() throws {
        let fieldJSON = try FormFixture.json(
            #"{"type":["string","null"],"title":"Status","description":"Now","default":"on_time","enum":["on_time",null],"maxLength":20}"#
        )
        #expect(
            fieldJSON
                == #"{"name":"x","path":"content-state.x","label":"Status","type":"string","widget":"select","required":false,"description":"Now","default":"on_time","options":[{"value":"on_time","label":"On time"},{"value":null,"label":"null"}],"nullable":true,"constraints":{"max_length":20}}"#
        )
    }

    @Test func groupRendersItsFieldsLast() throws {
        let fieldJSON = try FormFixture.json(#"{"type":"object","properties":{"a":{"type":"boolean"}}}"#)
        #expect(
            fieldJSON
                == #"{"name":"x","path":"content-state.x","label":"X","type":"object","widget":"group","required":false,"fields":[{"name":"a","path":"content-state.x.a","label":"A","type":"boolean","widget":"toggle","required":false}]}"#
        )
    }

    @Test func listRendersItsItemLast() throws {
        let fieldJSON = try FormFixture.json(#"{"type":"array","minItems":1,"items":{"type":"integer"}}"#)
        #expect(
            fieldJSON
                == #"{"name":"x","path":"content-state.x","label":"X","type":"array","widget":"list","required":false,"constraints":{"min_items":1},"item":{"name":"item","path":"content-state.x[]","label":"Item","type":"integer","widget":"number","required":false}}"#
        )
    }
}
