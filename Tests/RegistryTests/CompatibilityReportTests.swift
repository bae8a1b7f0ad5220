@testable import Registry
import Testing

/// The report a publisher reads: which versions the policy compares, new problems apart from
/// inherited ones, grouped by path.
@Suite struct CompatibilityReportTests {
    private func outline(_ properties: String) throws -> CompatibilityOutline {
        CompatibilityOutline(document: try SchemaRules.validate(#"{"type":"object","properties":\#(properties)}"#))
    }

    private func version(_ number: Int32, _ properties: String) throws -> ComparedVersion {
        ComparedVersion(version: number, contentHash: [UInt8(number)], outline: try outline(properties))
    }

    /// Reviews `new` with versions 1…n of `history`, the last being the newest.
    private func review(
        _ new: String, after history: [String], policy: CompatibilityPolicy = .builtIn, limitReached: Bool = false
    ) throws -> CompatibilityReport {
        let versions = try history.enumerated().map { try version(Int32($0.offset + 1), $0.element) }
        return Compatibility.review(
            try outline(new), contentHash: [0], policy: policy, newest: versions.last, earlier: versions,
            limitReached: limitReached)
    }

    private func listed(_ problems: [CompatibilityProblem]) -> [String] {
        problems.map { "\($0.path) \($0.problem) v\($0.version)" }
    }

    @Test func problemsTheNewestVersionAlreadyHadAreInheritedAndDoNotMakeItIncompatible() throws {
        let report = try review(
            #"{"status":{"type":"string"},"gate":{"type":"string"}}"#,
            after: [#"{"status":{"type":"integer"},"eta":{"type":"string"},"delay":{}}"#, #"{"status":{"type":"string"},"gate":{"type":"string"}}"#])
        #expect(report.isCompatible)
        #expect(report.problems.isEmpty)
        #expect(listed(report.inheritedProblems) == ["content-state.delay removed v1", "content-state.eta removed v1", "content-state.status type_changed v1"])
    }

    @Test func whatTheNewestVersionDidNotBreakIsNewEvenAgainstOlderVersions() throws {
        let report = try review(
            #"{"a":{"type":"string"}}"#,
            after: [#"{"a":{"type":"string"},"b":{"type":"string"}}"#, #"{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}}"#])
        #expect(!report.isCompatible)
        #expect(listed(report.problems) == ["content-state.b removed v1", "content-state.b removed v2", "content-state.c removed v2"])
        #expect(report.inheritedProblems.isEmpty)
        #expect(report.groups.map { "\($0.path) \($0.versions)" } == ["content-state.b [1, 2]", "content-state.c [2]"])
    }

    /// Each mode compares its own versions: v1 {a, b}, v2 {a} (b removed and accepted), new {}.
    @Test(arguments: [
        (CompatibilityPolicy.Mode.none, [Int32](), [String](), [String]()),
        (.backward, [2], ["content-state.a removed v2"], []),
        (.backwardTransitive, [2, 1], ["content-state.a removed v1", "content-state.a removed v2"], ["content-state.b removed v1"]),
    ])
    func eachModeComparesItsVersions(mode: CompatibilityPolicy.Mode, compared: [Int32], new: [String], inherited: [String]) throws {
        let report = try review(
            "{}", after: [#"{"a":{"type":"string"},"b":{"type":"string"}}"#, #"{"a":{"type":"string"}}"#],
            policy: CompatibilityPolicy(mode: mode, enforce: .warn))
        #expect(report.comparedVersions == compared)
        #expect(listed(report.problems) == new)
        #expect(listed(report.inheritedProblems) == inherited)
        #expect(report.isCompatible == new.isEmpty)
    }

    @Test func versionsBelowTheFloorAreNotCompared() throws {
        let history = [#"{"a":{"type":"string"}}"#, #"{"b":{"type":"string"}}"#, #"{"b":{"type":"string"},"c":{"type":"string"}}"#]
        let floor2 = try review("{}", after: history, policy: CompatibilityPolicy(mode: .backwardTransitive, enforce: .warn, oldestSupportedVersion: 2))
        #expect(floor2.comparedVersions == [3, 2])
        #expect(!floor2.problems.contains { $0.version == 1 })
        let floor4 = try review("{}", after: history, policy: CompatibilityPolicy(mode: .backwardTransitive, enforce: .warn, oldestSupportedVersion: 4))
        #expect(floor4.comparedVersions.isEmpty)
        #expect(floor4.isCompatible)
        #expect(floor4.summary == "nothing to compare: no earlier live version from version 4 up")
    }

    @Test func aFirstVersionSaysThereWasNothingToCompare() throws {
        let report = try review(#"{"a":{"type":"string"}}"#, after: [])
        #expect(report.isCompatible)
        #expect(report.comparedVersions.isEmpty)
        #expect(report.summary == "nothing to compare: no earlier live version")
    }

    @Test func republishingTheNewestTextInheritsEverythingAndAddsNothing() throws {
        let newest = #"{"a":{"type":"string"}}"#
        let versions = [try version(1, #"{"a":{"type":"string"},"b":{"type":"string"}}"#), try version(2, newest)]
        let report = Compatibility.review(
            try outline(newest), contentHash: [2], policy: .builtIn, newest: versions[1], earlier: versions, limitReached: false)
        #expect(report.isCompatible)
        #expect(report.comparedVersions == [2, 1])
        #expect(listed(report.inheritedProblems) == ["content-state.b removed v1"])
    }

    @Test func theNewestVersionIsComparedEvenWhenTheLimitCutItsTextOff() throws {
        let old = try version(1, #"{"a":{"type":"string"}}"#)
        let newest = ComparedVersion(version: 9, contentHash: [7], outline: try outline(#"{"a":{"type":"string"},"z":{"type":"string"}}"#))
        let report = Compatibility.review(
            try outline(#"{"a":{"type":"string"}}"#), contentHash: [0], policy: .builtIn, newest: newest, earlier: [old],
            limitReached: true)
        #expect(report.comparedVersions == [9, 1])
        #expect(listed(report.problems) == ["content-state.z removed v9"])
        #expect(report.limitReached)
        #expect(report.summary.contains("stopped at the newest 2 distinct versions"))
    }

    @Test func aDifferentBreakOfAnAlreadyBrokenFieldIsNew() throws {
        let history = [#"{"s":{"enum":["a"]}}"#, #"{"s":{"enum":["a","x"]}}"#]
        let same = try review(#"{"s":{"enum":["a","x"]}}"#, after: history)
        #expect(same.isCompatible)
        let more = try review(#"{"s":{"enum":["a","x","y"]}}"#, after: history)
        #expect(listed(more.problems) == ["content-state.s enum_value_added v1", "content-state.s enum_value_added v2"])
    }

    @Test func reportRendersTheWireShape() throws {
        let report = try review("{}", after: [#"{"gate":{"type":"string"}}"#])
        let message = "content-state.gate was removed in the new version; apps built against version 1 cannot decode updates without it"
        #expect(
            JSONWriter.string(report.jsonValue)
                == #"{"compatible":false,"problems":[{"version":1,"path":"content-state.gate","problem":"removed","message":"\#(message)"}],"#
                + #""inherited_problems":[],"groups":[{"path":"content-state.gate","problem":"removed","new":true,"version_ranges":[[1,1]],"version_count":1,"message":"\#(message)"}],"#
                + #""problem_count":1,"inherited_problem_count":0,"group_count":1,"not_compared":[],"truncated":false,"#
                + #""mode":"backward_transitive","enforce":"warn","oldest_supported_version":1,"compared_versions":[1],"#
                + #""comparison_limit_reached":false,"summary":"1 new problem against version 1 compared (backward_transitive)"}"#)
    }

    @Test func problemKindsHaveTheirWireNames() {
        let kinds: [CompatibilityProblem.Kind] = [.removed, .typeChanged, .nullable, .enumValueAdded]
        #expect(kinds.map(\.rawValue) == ["removed", "type_changed", "nullable", "enum_value_added"])
    }
}

/// A field the old version's form cannot read (a composition of schemas) is neither compatible
/// nor a problem: the report names it and why.
@Suite struct CompatibilityNotComparedTests {
    static func outline(_ text: String) throws -> CompatibilityOutline {
        CompatibilityOutline(document: try SchemaRules.validate(text))
    }

    @Test func fieldsTheComparisonCannotReadAreListedOnceWithTheirReason() throws {
        let old = try Self.outline(
            #"{"type":"object","properties":{"stage":{"oneOf":[{"type":"string"},{"type":"integer"}]},"gate":{"type":"string"}}}"#)
        let new = try Self.outline(#"{"type":"object","properties":{"stage":{"type":"boolean"},"gate":{"type":"string"}}}"#)
        let earlier = [ComparedVersion(version: 1, contentHash: [1], outline: old), ComparedVersion(version: 2, contentHash: [2], outline: old)]
        let report = Compatibility.review(
            new, contentHash: [3], policy: CompatibilityPolicy(mode: .backwardTransitive, enforce: .warn), newest: earlier[1],
            earlier: earlier, limitReached: false)
        #expect(report.isCompatible)
        #expect(
            report.notCompared == [
                NotComparedField(
                    path: "content-state.stage",
                    reason: "oneOf makes the value's shape depend on several schemas, which one editor cannot show")
            ])
        #expect(report.summary.contains("1 field not compared (see not_compared)"))
        #expect(report.jsonValue["not_compared"]?.arrayValue?.count == 1)
    }

    @Test func aFieldThatAllowsAnythingIsNotListed() throws {
        let old = try Self.outline(#"{"type":"object","properties":{"extra":{}}}"#)
        let new = try Self.outline(#"{"type":"object","properties":{"extra":{"type":"string"}}}"#)
        let earlier = ComparedVersion(version: 1, contentHash: [1], outline: old)
        let report = Compatibility.review(
            new, contentHash: [2], policy: CompatibilityPolicy(mode: .backward, enforce: .warn), newest: earlier, earlier: [earlier],
            limitReached: false)
        #expect(report.notCompared.isEmpty)
        #expect(report.jsonValue["not_compared"] == .array([]))
    }
}
