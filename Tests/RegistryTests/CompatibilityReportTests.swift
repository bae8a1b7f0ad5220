import Registry
import Testing

/// The report a publisher reads: every earlier version compared with the new one.
@Suite struct CompatibilityReportTests {
    private func schema(_ properties: String) throws -> SchemaDocument {
        try SchemaRules.validate(#"{"type":"object","properties":\#(properties)}"#)
    }

    @Test func problemsComeOldestVersionFirstThenByPath() throws {
        let new = try schema(#"{"status":{"type":"string"}}"#)
        let report = Compatibility.report(
            for: new,
            against: [
                (version: 2, document: try schema(#"{"status":{"type":"string"},"gate":{"type":"string"}}"#)),
                (version: 1, document: try schema(#"{"status":{"type":"integer"},"eta":{"type":"string"},"delay":{}}"#)),
            ])
        #expect(report.problems.map(\.version) == [1, 1, 1, 2])
        #expect(
            report.problems.map(\.path)
                == ["content-state.delay", "content-state.eta", "content-state.status", "content-state.gate"])
        #expect(!report.isCompatible)
    }

    @Test func reportWithoutProblemsIsCompatible() throws {
        let old = try schema(#"{"gate":{"type":"string"}}"#)
        let new = try schema(#"{"gate":{"type":"string"},"terminal":{"type":"string"}}"#)
        let report = Compatibility.report(for: new, against: [(version: 1, document: old)])
        #expect(report.isCompatible)
        #expect(JSONWriter.string(report.jsonValue) == #"{"compatible":true,"problems":[]}"#)
    }

    @Test func reportRendersEveryProblemInTheWireShape() throws {
        let report = Compatibility.report(
            for: try schema("{}"), against: [(version: 1, document: try schema(#"{"gate":{"type":"string"}}"#))])
        #expect(
            JSONWriter.string(report.jsonValue)
                == #"{"compatible":false,"problems":[{"version":1,"path":"content-state.gate","problem":"removed","message":"content-state.gate was removed in the new version; apps built against version 1 cannot decode updates without it"}]}"#
        )
    }

    @Test func problemKindsHaveTheirWireNames() {
        let kinds: [CompatibilityProblem.Kind] = [.removed, .typeChanged, .nullable, .enumValueAdded]
        #expect(kinds.map(\.rawValue) == ["removed", "type_changed", "nullable", "enum_value_added"])
    }
}
