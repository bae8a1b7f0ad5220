import Registry
import Testing

/// The checks of a publish are pure: a report with new problems refuses under
/// `requireCompatible` or a rejecting policy, and is only recorded otherwise.
@Suite struct PublishChecksTests {
    static let old = #"{"type":"object","properties":{"gate":{"type":"string"}}}"#
    static let new = #"{"type":"object","properties":{"gate":{"type":"integer"}}}"#

    static func report(_ policy: CompatibilityPolicy) throws -> CompatibilityReport {
        let earlier = ComparedVersion(version: 1, contentHash: [1], outline: CompatibilityOutline(document: try SchemaRules.validate(old)))
        return Compatibility.review(
            CompatibilityOutline(document: try SchemaRules.validate(new)), contentHash: [2], policy: policy, newest: earlier,
            earlier: [earlier], limitReached: false)
    }

    @Test func newProblemsRefuseOnlyWhenAskedOrUnderARejectingPolicy() throws {
        let document = try SchemaRules.validate(Self.new)
        let warn = try Self.report(CompatibilityPolicy(mode: .backward, enforce: .warn))
        let reject = try Self.report(CompatibilityPolicy(mode: .backward, enforce: .reject))
        #expect(!warn.isCompatible)
        let accepted = try PublishChecks(document, attributesType: "Flight", compatibility: warn, requireCompatible: false)
        #expect(accepted.auditDetails == ["compatibility": warn.jsonValue])
        for (report, requested) in [(warn, true), (reject, false)] {
            do {
                _ = try PublishChecks(document, attributesType: "Flight", compatibility: report, requireCompatible: requested)
                Issue.record("not refused")
            } catch {
                #expect(error.code == .alreadyExists)
                #expect(error.message.contains("content-state.gate (type_changed, against version 1)"))
            }
        }
    }

    /// A keyword the dialect does not define is read by no check: publishing says so, with the
    /// nearest keyword, and never about the registry's own `attributes` or `x-` extensions.
    @Test func unknownKeywordsAreWarnedAboutWithTheNearestKnownOne() throws {
        let document = try SchemaRules.validate(
            #"{"type":"object","x-assert-formats":false,"properties":{"gate":{"type":"string","maxLenght":4,"x-swift-type":"String","colour":"red"}},"attributes":{"properties":{"n":{"type":"string"}}}}"#
        )
        let checks = try PublishChecks(
            document, attributesType: "Flight", compatibility: try Self.report(CompatibilityPolicy(mode: .none, enforce: .warn)),
            requireCompatible: false)
        #expect(
            checks.warnings == [
                [
                    "path": "jsonSchema.properties.gate.maxLenght",
                    "message": #""maxLenght" is not a keyword of JSON Schema 2020-12, so no check reads it; did you mean "maxLength"?"#,
                ],
                [
                    "path": "jsonSchema.properties.gate.colour",
                    "message": #""colour" is not a keyword of JSON Schema 2020-12, so no check reads it (registry extensions start with x-)"#,
                ],
            ])
    }
}
