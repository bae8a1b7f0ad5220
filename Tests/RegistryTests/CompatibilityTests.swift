import Registry
import Testing

/// What an app built against an older version fails on when it receives data shaped by a new one.
@Suite struct CompatibilityTests {
    private func problems(_ old: String, _ new: String, oldVersion: Int32 = 1) throws -> [CompatibilityProblem] {
        try Compatibility.problems(from: SchemaRules.readStored(old), oldVersion: oldVersion, to: SchemaRules.readStored(new))
    }

    private func content(_ properties: String) -> String {
        #"{"type":"object","properties":\#(properties)}"#
    }

    @Test func removedFieldIsReported() throws {
        let found = try problems(content(#"{"gate":{"type":"string"},"status":{"type":"string"}}"#), content(#"{"status":{"type":"string"}}"#))
        #expect(found.map(\.problem) == ["removed"])
        #expect(found.map(\.path) == ["content-state.gate"])
        #expect(
            found.first?.message
                == "content-state.gate was removed in the new version; apps built against version 1 cannot decode updates without it"
        )
    }

    @Test func removedNullableFieldIsReportedAsAWarningAboutOptionals() throws {
        let found = try problems(content(#"{"note":{"type":["string","null"]}}"#), content("{}"), oldVersion: 3)
        #expect(found.map(\.kind) == [.removed])
        #expect(
            found.first?.message
                == "content-state.note was removed in the new version; it was nullable in version 3, so apps built against that version decode updates without it only if they declared it optional"
        )
    }

    @Test func removedAttributeIsReportedWithTheAttributesPath() throws {
        let old = #"{"type":"object","attributes":{"properties":{"flightNumber":{"type":"string"}}}}"#
        let found = try problems(old, #"{"type":"object"}"#)
        #expect(found.map(\.path) == ["attributes.flightNumber"])
        #expect(found.first?.message.contains("cannot decode activity attributes without it") == true)
    }

    @Test func fieldMovedFromContentToAttributesIsRemovedFromContent() throws {
        let old = content(#"{"gate":{"type":"string"}}"#)
        let new = #"{"type":"object","attributes":{"properties":{"gate":{"type":"string"}}}}"#
        let found = try problems(old, new)
        #expect(found.map(\.kind) == [.removed])
        #expect(found.map(\.path) == ["content-state.gate"])
    }

    @Test func changedTypeIsReported() throws {
        let found = try problems(content(#"{"gate":{"type":"string"}}"#), content(#"{"gate":{"type":"integer"}}"#), oldVersion: 2)
        #expect(found.map(\.kind) == [.typeChanged])
        #expect(
            found.first?.message
                == "content-state.gate changed type from string to integer in the new version; apps built against version 2 cannot decode its values"
        )
    }

    @Test func integerWideningToNumberIsATypeChange() throws {
        let found = try problems(content(#"{"score":{"type":"integer"}}"#), content(#"{"score":{"type":"number"}}"#))
        #expect(found.map(\.kind) == [.typeChanged])
    }

    @Test func numberNarrowingToIntegerIsSafe() throws {
        #expect(try problems(content(#"{"score":{"type":"number"}}"#), content(#"{"score":{"type":"integer"}}"#)).isEmpty)
    }

    @Test func typedFieldBecomingAnyIsATypeChange() throws {
        let found = try problems(content(#"{"gate":{"type":"string"}}"#), content(#"{"gate":{"oneOf":[]}}"#))
        #expect(found.map(\.kind) == [.typeChanged])
    }

    @Test func anyFieldInTheOldVersionIsNotChecked() throws {
        #expect(try problems(content(#"{"extra":{}}"#), content(#"{"extra":{"type":["integer","null"]}}"#)).isEmpty)
    }

    @Test func fieldMadeNullableIsReported() throws {
        let found = try problems(content(#"{"gate":{"type":"string"}}"#), content(#"{"gate":{"type":["null","string"]}}"#))
        #expect(found.map(\.kind) == [.nullable])
        #expect(
            found.first?.message
                == "content-state.gate may be null in the new version; apps built against version 1 expect a string there and cannot decode null"
        )
    }

    @Test func nullableFieldMadeRequiredIsSafe() throws {
        #expect(try problems(content(#"{"gate":{"type":["string","null"]}}"#), content(#"{"gate":{"type":"string"}}"#)).isEmpty)
    }

    @Test func addedEnumValueIsReported() throws {
        let found = try problems(
            content(#"{"status":{"type":"string","enum":["on_time","delayed"]}}"#),
            content(#"{"status":{"type":"string","enum":["on_time","boarding","delayed","cancelled"]}}"#))
        #expect(found.map(\.kind) == [.enumValueAdded])
        #expect(
            found.first?.message
                == #"content-state.status allows "boarding", "cancelled" in the new version, which version 1 does not list; apps built against version 1 cannot decode those values"#
        )
    }

    @Test func changedConstIsAnAddedEnumValue() throws {
        let found = try problems(content(#"{"kind":{"const":"flight"}}"#), content(#"{"kind":{"const":"train"}}"#))
        #expect(found.map(\.kind) == [.enumValueAdded])
        #expect(found.first?.message.contains(#"allows "train""#) == true)
    }

    @Test func enumNoLongerListingItsValuesIsReported() throws {
        let found = try problems(
            content(#"{"status":{"type":"string","enum":["on_time"]}}"#), content(#"{"status":{"type":"string"}}"#))
        #expect(found.map(\.kind) == [.enumValueAdded])
        #expect(found.first?.message.contains("no longer lists its allowed values") == true)
    }

    @Test func equalNumbersWrittenDifferentlyAreTheSameEnumValue() throws {
        #expect(try problems(content(#"{"level":{"enum":[1,2]}}"#), content(#"{"level":{"enum":[1.0,2e0]}}"#)).isEmpty)
    }

    @Test func nullAddedToAnEnumIsReportedOnceAsNullable() throws {
        let found = try problems(content(#"{"status":{"enum":["a","b"]}}"#), content(#"{"status":{"enum":["a","b",null]}}"#))
        #expect(found.map(\.kind) == [.nullable])
    }

    @Test func removedEnumValueIsSafe() throws {
        let found = try problems(
            content(#"{"status":{"type":"string","enum":["on_time","delayed","cancelled"]}}"#),
            content(#"{"status":{"type":"string","enum":["on_time","delayed"]}}"#))
        #expect(found.isEmpty)
    }

    @Test func addedFieldIsSafe() throws {
        #expect(try problems(content(#"{"gate":{"type":"string"}}"#), content(#"{"gate":{"type":"string"},"terminal":{"type":"string"}}"#)).isEmpty)
    }

    @Test func identicalSchemasAreCompatible() throws {
        let schema = #"{"type":"object","properties":{"gate":{"type":"string"}},"attributes":{"properties":{"n":{"type":"integer"}}}}"#
        #expect(try problems(schema, schema).isEmpty)
    }

    @Test func reorderedKeysAreCompatible() throws {
        #expect(
            try problems(
                content(#"{"gate":{"type":"string"},"legs":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}}}"#),
                content(#"{"legs":{"items":{"properties":{"b":{"type":"integer"},"a":{"type":"string"}},"type":"object"},"type":"array"},"gate":{"type":"string"}}"#)
            ).isEmpty)
    }

    @Test func nestedObjectFieldProblemsCarryTheNestedPath() throws {
        let found = try problems(
            content(#"{"flight":{"type":"object","properties":{"gate":{"type":"string"},"seat":{"type":"string"}}}}"#),
            content(#"{"flight":{"type":"object","properties":{"seat":{"type":"integer"}}}}"#))
        #expect(found.map(\.path) == ["content-state.flight.gate", "content-state.flight.seat"])
        #expect(found.map(\.kind) == [.removed, .typeChanged])
    }

    @Test func objectLosingItsPropertiesLosesEveryNestedField() throws {
        let found = try problems(
            content(#"{"flight":{"type":"object","properties":{"gate":{"type":"string"}}}}"#),
            content(#"{"flight":{"type":"object"}}"#))
        #expect(found.map(\.path) == ["content-state.flight.gate"])
        #expect(found.map(\.kind) == [.removed])
    }

    @Test func arrayItemProblemsCarryTheItemPath() throws {
        let found = try problems(
            content(#"{"legs":{"type":"array","items":{"type":"object","properties":{"gate":{"type":"string"}}}}}"#),
            content(#"{"legs":{"type":"array","items":{"type":"object","properties":{"gate":{"type":["string","null"]}}}}}"#))
        #expect(found.map(\.path) == ["content-state.legs[].gate"])
        #expect(found.map(\.kind) == [.nullable])
    }

    @Test func arrayItemTypeChangeIsReportedOnTheItem() throws {
        let found = try problems(
            content(#"{"stops":{"type":"array","items":{"type":"string"}}}"#),
            content(#"{"stops":{"type":"array","items":{"type":"integer"}}}"#))
        #expect(found.map(\.path) == ["content-state.stops[]"])
        #expect(found.map(\.kind) == [.typeChanged])
    }

    @Test func referencesAreResolvedAsInTheForm() throws {
        let old = ##"{"type":"object","properties":{"gate":{"$ref":"#/$defs/Gate"}},"$defs":{"Gate":{"type":"string"}}}"##
        #expect(try problems(old, content(#"{"gate":{"type":"string"}}"#)).isEmpty)
        let cyclic = ##"{"type":"object","properties":{"gate":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}}"##
        #expect(try problems(cyclic, content(#"{"gate":{"type":"string"}}"#)).isEmpty)
    }

    @Test func problemsOfOneComparisonAreOrderedByPath() throws {
        let found = try problems(
            #"{"type":"object","properties":{"zeta":{},"alpha":{"type":"string"}},"attributes":{"properties":{"mid":{}}}}"#,
            #"{"type":"object","properties":{"alpha":{"type":"boolean"}}}"#)
        #expect(found.map(\.path) == ["attributes.mid", "content-state.alpha", "content-state.zeta"])
    }
}
