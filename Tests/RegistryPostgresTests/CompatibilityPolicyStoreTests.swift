import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Policies in PostgreSQL: the most specific one applies, a publish is reviewed under the
/// policy it read, and only the texts a caller needs are read.
@Suite struct CompatibilityPolicyStoreTests {
    static let reject = CompatibilityPolicy(mode: .backward, enforce: .reject, oldestSupportedVersion: 2)

    @Test func theTypesPolicyOverridesTheApplicationsWhichOverridesTheDefault() async throws {
        let f = try Fixture()
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: "T").source == .builtIn)
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: "T").policy == .builtIn)
        let applicationPolicy = CompatibilityPolicy(mode: .none, enforce: .warn)
        _ = try await f.store.setCompatibilityPolicy(application: f.application, attributesType: nil, to: applicationPolicy, by: .cli)
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: "T").source == .application)
        let set = try await f.store.setCompatibilityPolicy(application: f.application, attributesType: "T", to: Self.reject, by: .cli)
        #expect(set.source == .type && set.policy == Self.reject && set.updated != nil)
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: "T").policy == Self.reject)
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: "Other").policy == applicationPolicy)
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: nil).policy == applicationPolicy)
        #expect(try await f.store.removeCompatibilityPolicy(application: f.application, attributesType: "T", by: .cli))
        #expect(try await !f.store.removeCompatibilityPolicy(application: f.application, attributesType: "T", by: .cli))
        #expect(try await f.store.compatibilityPolicy(application: f.application, attributesType: "T").source == .application)
    }

    @Test func aPublishUnderARejectingPolicyIsReviewedWithThatPolicyAndARefusalWritesNothing() async throws {
        let f = try Fixture()
        try await f.publish("Guarded")
        _ = try await f.store.setCompatibilityPolicy(application: f.application, attributesType: "Guarded", to: Self.reject, by: .cli)
        await #expect(throws: RegistryError.alreadyExists("refused")) {
            try await f.store.publish(
                application: f.application, attributesType: "Guarded", version: .nextFree, jsonSchema: #"{"type":"object"}"#,
                by: .cli, comparing: Comparison(limit: 100), once: nil, response: { _ in throw RegistryError.alreadyExists("refused") })
        }
        #expect(try await f.store.list(application: f.application, attributesType: "Guarded", after: nil, limit: nil).count == 1)
        var seen: ComparisonBasis?
        let reviewed = try await f.store.publish(
            application: f.application, attributesType: "Guarded", version: .nextFree, jsonSchema: #"{"type":"object"}"#,
            by: .cli, comparing: Comparison(limit: 100), once: nil, response: { publication in
                seen = publication.basis
                return PublishAnswer(body: [], auditDetails: [:])
            })
        guard case .published(let schema, _) = reviewed else { Issue.record("not published: \(reviewed)"); return }
        #expect(schema.version == 2)
        #expect(seen?.policy.policy == Self.reject)
        #expect(seen?.newest?.version == 1)
    }

    @Test func theBasisHonoursModeFloorAndLimit() async throws {
        let f = try Fixture()
        for index in 1...5 { try await f.publish("Basis", .nextFree, #"{"type":"object","description":"\#(index)"}"#) }
        #expect(try await f.basis("Basis").earlier.map(\.version) == [1, 2, 3, 4, 5])
        let limited = try await f.basis("Basis", limit: 2)
        #expect(limited.earlier.map(\.version) == [4, 5])
        #expect(limited.limitReached)
        #expect(try await f.basis("Basis", below: 4).newest?.version == 3)
        _ = try await f.store.setCompatibilityPolicy(
            application: f.application, attributesType: "Basis",
            to: CompatibilityPolicy(mode: .backwardTransitive, enforce: .warn, oldestSupportedVersion: 3), by: .cli)
        #expect(try await f.basis("Basis").earlier.map(\.version) == [3, 4, 5])
        _ = try await f.store.setCompatibilityPolicy(application: f.application, attributesType: "Basis", to: Self.reject, by: .cli)
        let backward = try await f.basis("Basis")
        #expect(backward.earlier.isEmpty && backward.newest?.version == 5)
        _ = try await f.store.setCompatibilityPolicy(
            application: f.application, attributesType: "Basis", to: CompatibilityPolicy(mode: .none, enforce: .reject), by: .cli)
        let none = try await f.basis("Basis")
        #expect(none.earlier.isEmpty && none.newest == nil)
    }

    @Test func onlyTheTextsTheCallerNeedsAreRead() async throws {
        let f = try Fixture()
        let texts = (1...3).map { #"{"type":"object","description":"\#($0)"}"# }
        for text in texts { try await f.publish("Texts", .nextFree, text) }
        let known = SHA256.hash(texts[0].utf8)
        let basis = try await f.store.comparisonBasis(
            application: f.application, attributesType: "Texts", below: nil,
            comparing: Comparison(limit: 100) { $0 != known })
        #expect(basis.earlier.map(\.jsonSchema) == [nil, texts[1], texts[2]])
        #expect(basis.newest?.jsonSchema == texts[2])
        let publication = try await f.store.publish(
            application: f.application, attributesType: "Texts", version: .nextFree, jsonSchema: "{}", by: .cli,
            comparing: Comparison(limit: 100) { _ in false })
        #expect(publication.earlier.map(\.version) == [1, 2, 3])
        #expect(publication.earlier.allSatisfy { $0.jsonSchema == nil })
    }
}
