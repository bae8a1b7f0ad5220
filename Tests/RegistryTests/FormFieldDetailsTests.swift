import Registry
import Testing

/// The label, description, default, options, nullable and constraints a form gives a field.
@Suite struct FormFieldDetailsTests {
    @Test func labelIsTheTitleWhenGiven() throws {
        #expect(try FormFixture.field(#"{"type":"string","title":"Boarding gate"}"#).label == "Boarding gate")
    }

    @Test func labelIsTheHumanisedNameWithoutTitle() throws {
        let form = try FormFixture.form(#"{"type":"object","properties":{"estimatedTime":{"type":"string"}}}"#)
        #expect(form.content.fields[0].label == "Estimated time")
    }

    @Test func emptyOrNonStringTitleFallsBackToTheHumanisedName() throws {
        #expect(try FormFixture.field(#"{"type":"string","title":""}"#).label == "X")
        #expect(try FormFixture.field(#"{"type":"string","title":5}"#).label == "X")
    }

    @Test func descriptionIsCopiedWhenGiven() throws {
        let (field, fieldJSON) = try FormFixture.fieldWithJSON(#"{"type":"string","description":"Where to board"}"#)
        #expect(field.description == "Where to board")
        #expect(fieldJSON.contains(#""required":false,"description":"Where to board""#))
    }

    @Test func noDescriptionMeansNoKey() throws {
        #expect(!(try FormFixture.json(#"{"type":"string"}"#)).contains("description"))
    }

    @Test func defaultIsCopiedVerbatimAsJson() throws {
        let numberJSON = try FormFixture.json(#"{"type":"number","default":1.50}"#)
        #expect(numberJSON.hasSuffix(#""default":1.50}"#))
        let object = try FormFixture.field(#"{"type":"object","default":{"b":1,"a":[true,null]}}"#)
        #expect(object.defaultValue == ["b": 1, "a": [true, nil]])
    }

    @Test func optionsCarryTheValueAndItsHumanisedLabel() throws {
        let field = try FormFixture.field(#"{"type":"string","enum":["on_time","delayed","ETA"]}"#)
        #expect(field.options.map(\.value) == ["on_time", "delayed", "ETA"])
        #expect(field.options.map(\.label) == ["On time", "Delayed", "ETA"])
    }

    @Test func nonStringOptionsAreLabelledWithTheirJsonText() throws {
        let fieldJSON = try FormFixture.json(#"{"type":"number","enum":[1.50,2]}"#)
        #expect(fieldJSON.contains(#""options":[{"value":1.50,"label":"1.50"},{"value":2,"label":"2"}]"#))
    }

    @Test func widgetsOtherThanSelectHaveNoOptionsKey() throws {
        #expect(!(try FormFixture.json(#"{"type":"string"}"#)).contains("options"))
    }

    @Test func typeWithNullAfterIsNullable() throws {
        let (field, fieldJSON) = try FormFixture.fieldWithJSON(#"{"type":["string","null"]}"#)
        #expect((field.type, field.widget, field.isNullable) == (.string, .text, true))
        #expect(fieldJSON.hasSuffix(#""required":false,"nullable":true}"#))
    }

    @Test func typeWithNullBeforeIsNullable() throws {
        let field = try FormFixture.field(#"{"type":["null","integer"]}"#)
        #expect((field.type, field.widget, field.isNullable) == (.integer, .number, true))
    }

    @Test func singleTypeInAnArrayIsNotNullable() throws {
        let (field, fieldJSON) = try FormFixture.fieldWithJSON(#"{"type":["boolean"]}"#)
        #expect((field.type, field.widget, field.isNullable) == (.boolean, .toggle, false))
        #expect(!fieldJSON.contains("nullable"))
    }

    @Test func everyConstraintIsCopiedVerbatimInTheFormOrder() throws {
        let field = try FormFixture.field(
            """
            {"type":"string","format":"email","maxItems":9,"minItems":1,"multipleOf":0.50,
             "exclusiveMaximum":1e3,"exclusiveMinimum":-1,"maximum":100.0,"minimum":0,
             "pattern":"^[A-Z]$","maxLength":8,"minLength":2}
            """)
        #expect(
            JSONWriter.string(.object(field.constraints))
                == #"{"min_length":2,"max_length":8,"pattern":"^[A-Z]$","minimum":0,"maximum":100.0,"exclusive_minimum":-1,"exclusive_maximum":1e3,"multiple_of":0.50,"min_items":1,"max_items":9,"format":"email"}"#
        )
    }

    @Test func noConstraintsMeansNoKey() throws {
        #expect(!(try FormFixture.json(#"{"type":"string","title":"T"}"#)).contains("constraints"))
    }

    @Test func listConstraintsAreOnTheList() throws {
        let field = try FormFixture.field(#"{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string"}}"#)
        #expect(field.constraints == ["min_items": 1, "max_items": 3])
    }
}
