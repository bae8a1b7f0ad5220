import Registry
import RegistryAPI
import Testing
import TestSupport

/// Compatibility policies over HTTP: reading and setting them, and every publish and dry run
/// honouring the policy in force.
@Suite struct CompatibilityPolicyAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    static func schema(_ properties: String) -> String { #"{"type":"object","properties":\#(properties)}"# }
    static let ab = schema(#"{"a":{"type":"string"},"b":{"type":"string"}}"#)
    static let a = schema(#"{"a":{"type":"string"}}"#)
    static let none = schema("{}")

    func typePolicyPath(_ type: String) -> String {
        "/api/live_activity_types/\(type)/compatibility_policy?application=\(tenant.code)"
    }

    var applicationPolicyPath: String { "/api/applications/\(tenant.code)/compatibility_policy" }

    @discardableResult
    func setPolicy(_ path: String, _ body: String, on tenant: Tenant? = nil) throws -> RawHTTPResponse {
        try (tenant ?? self.tenant).request("PUT", path, body: body)
    }

    func body(_ type: String, _ schema: String, requireCompatible: Bool = false) -> JSONObject {
        var body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema)]
        if requireCompatible { body["requireCompatible"] = true }
        return body
    }

    // MARK: reading and setting

    @Test func aTypeWithoutPoliciesHasTheBuiltInDefault() throws {
        let response = try tenant.request("GET", typePolicyPath("Fresh"))
        #expect(response.status == 200)
        #expect(
            try response.json()
                == [
                    "policy": [
                        "application": .string(tenant.code), "attributes_type": "Fresh", "mode": "backward_transitive",
                        "enforce": "warn", "oldest_supported_version": 1, "source": "default",
                    ]
                ])
    }

    @Test func aTypeFollowsItsApplicationUntilItHasItsOwnPolicyAndAgainAfterItIsRemoved() throws {
        try #require(try setPolicy(applicationPolicyPath, #"{"mode":"backward","enforce":"reject"}"#).status == 200)
        let inherited = try tenant.request("GET", typePolicyPath("Follower")).json()["policy"]
        #expect(inherited?["source"] == "application")
        #expect(inherited?["mode"] == "backward")
        let own = try setPolicy(typePolicyPath("Follower"), #"{"mode":"none","enforce":"warn","oldest_supported_version":4}"#)
        #expect(own.status == 200)
        #expect(try own.json()["policy"]?["source"] == "type")
        #expect(try own.json()["policy"]?["oldest_supported_version"] == 4)
        #expect(try own.json()["policy"]?["updated"]?.stringValue != nil)
        let removed = try tenant.request("DELETE", typePolicyPath("Follower"))
        #expect(removed.status == 200)
        #expect(try removed.json()["policy"]?["source"] == "application")
        try expectError(try tenant.request("DELETE", typePolicyPath("Follower")), status: 404, code: 5, mentioning: "Follower")
        #expect(try tenant.request("DELETE", applicationPolicyPath).json()["policy"]?["source"] == "default")
    }

    @Test(arguments: [
        (#"{"enforce":"warn"}"#, "mode: is required"),
        (#"{"mode":"forward","enforce":"warn"}"#, "mode: must be one of none, backward, backward_transitive"),
        (#"{"mode":"none","enforce":"block"}"#, "enforce: must be warn or reject"),
        (#"{"mode":"none","enforce":"warn","oldestSupportedVersion":0}"#, "oldestSupportedVersion"),
        (#"{"mode":"none","enforce":"warn","oldestSupportedVersion":1,"oldest_supported_version":1}"#, "given as both"),
        ("[]", "body"),
    ])
    func aMalformedPolicyIsA400NamingTheField(body: String, mentioning: String) throws {
        try expectError(try setPolicy(typePolicyPath("Bad"), body), status: 400, code: 3, mentioning: mentioning)
        #expect(try tenant.request("GET", typePolicyPath("Bad")).json()["policy"]?["source"] == "default")
    }

    @Test func anotherAccountsApplicationIs403AndAnUnknownOne404() throws {
        let other = try TestRegistry.shared().makeTenant()
        try expectError(
            try setPolicy(applicationPolicyPath, #"{"mode":"none","enforce":"warn"}"#, on: other), status: 403, code: 7)
        try expectError(try other.request("GET", typePolicyPath("X")), status: 403, code: 7)
        try expectError(try tenant.request("GET", "/api/applications/ZZZZZ-ZZZZZ/compatibility_policy"), status: 404, code: 5)
    }

    @Test func settingAndRemovingAPolicyEachWriteOnePolicyChangeEvent() throws {
        try #require(try setPolicy(typePolicyPath("Audited"), #"{"mode":"backward","enforce":"reject"}"#).status == 200)
        try #require(try tenant.request("DELETE", typePolicyPath("Audited")).status == 200)
        try expectError(try tenant.request("DELETE", typePolicyPath("Audited")), status: 404, code: 5)
        try expectError(try setPolicy(typePolicyPath("Audited"), #"{"mode":"sideways","enforce":"warn"}"#), status: 400, code: 3)
        let events = try #require(
            try tenant.request("GET", "/api/audit_events?application=\(tenant.code)&action=policy_change").json()["audit_events"]?
                .arrayValue)
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0["attributes_type"] == "Audited" })
        #expect(events.last?["details"]?["policy"]?["enforce"] == "reject")
        #expect(events.first?["details"]?["policy"] == .null)
    }

    // MARK: publishing under a policy

    /// Versions 1 {a, b} and 2 {a} (b removed, accepted under the default), then {} removing a.
    @Test(arguments: [
        ("none", "warn", 200, [Int]()),
        ("none", "reject", 200, []),
        ("backward", "warn", 200, [2]),
        ("backward", "reject", 409, [2]),
        ("backward_transitive", "warn", 200, [2, 1]),
        ("backward_transitive", "reject", 409, [2, 1]),
    ])
    func eachModeAndEnforcementDecidesThePublishAndTheDryRun(mode: String, enforce: String, status: Int, compared: [Int]) throws {
        let type = "Matrix_\(mode)_\(enforce)"
        #expect(try tenant.publish(type, Self.ab).status == 200)
        #expect(try tenant.publish(type, Self.a).status == 200)
        try #require(try setPolicy(typePolicyPath(type), #"{"mode":"\#(mode)","enforce":"\#(enforce)"}"#).status == 200)

        let dry = try tenant.post(body(type, Self.none), path: "/api/live_activity_schemas:validate")
        let publish = try tenant.post(body(type, Self.none))
        #expect(dry.status == status, "\(dry.bodyText)")
        #expect(publish.status == status, "\(publish.bodyText)")
        let report: JSONValue?
        if status == 409 {
            try expectError(publish, status: 409, code: 6, mentioning: "content-state.a (removed", details: 1)
            #expect(try publish.json()["message"]?.stringValue?.contains("(\(mode), reject)") == true)
            report = try publish.json()["details"]?.arrayValue?.first
            #expect(try tenant.list(query: "&attributesType=\(type)").count == 2)
        } else {
            report = try publish.json()["compatibility"]
            #expect(try tenant.list(query: "&attributesType=\(type)").count == 3)
        }
        #expect(report?["mode"] == .string(mode))
        #expect(report?["enforce"] == .string(enforce))
        #expect(report?["compared_versions"]?.arrayValue?.compactMap(\.integerLexemeValue) == compared)
        #expect(report?["compatible"] == .bool(mode == "none"))
    }

    /// Version 1 has `a` as a string; version 2 drops it; the new one brings `a` back as an
    /// integer, which only apps built against version 1 cannot decode.
    @Test func versionsBelowTheFloorAreNotCompared() throws {
        #expect(try tenant.publish("Floor", Self.a).status == 200)
        #expect(try tenant.publish("Floor", Self.schema(#"{"b":{"type":"string"}}"#)).status == 200)
        let bringsBackA = Self.schema(#"{"b":{"type":"string"},"a":{"type":"integer"}}"#)
        try #require(try setPolicy(typePolicyPath("Floor"), #"{"mode":"backward_transitive","enforce":"reject"}"#).status == 200)
        #expect(try tenant.post(body("Floor", bringsBackA), path: "/api/live_activity_schemas:validate").status == 409)
        try #require(
            try setPolicy(typePolicyPath("Floor"), #"{"mode":"backward_transitive","enforce":"reject","oldestSupportedVersion":2}"#)
                .status == 200)
        let published = try tenant.post(body("Floor", bringsBackA))
        #expect(published.status == 200, "\(published.bodyText)")
        #expect(try published.json()["compatibility"]?["compared_versions"] == [2])
        #expect(try published.json()["compatibility"]?["oldest_supported_version"] == 2)
    }

    /// Version 1 has `a`, version 2 adds `b`; the new one has `a` and `c`, so it removes `b`
    /// from version 2 only. A disabled version is withdrawn and is no base to compare with; a
    /// deprecated one still is, and so is a version restored to active.
    @Test(arguments: ["backward", "backward_transitive"])
    func disabledVersionsAreNotComparedButDeprecatedOnesAre(mode: String) throws {
        let type = "Withdrawn_\(mode)"
        #expect(try tenant.publish(type, Self.a).status == 200)
        #expect(try tenant.publish(type, Self.ab).status == 200)
        try #require(try setPolicy(typePolicyPath(type), #"{"mode":"\#(mode)","enforce":"reject"}"#).status == 200)
        let ac = Self.schema(#"{"a":{"type":"string"},"c":{"type":"string"}}"#)
        let refusal = "content-state.b (removed, against version 2)"
        let compared = mode == "backward" ? [2] : [2, 1]

        let refused = try tenant.post(body(type, ac))
        try expectError(refused, status: 409, code: 6, mentioning: refusal, details: 1)
        #expect(try refused.json()["details"]?.arrayValue?.first?["compared_versions"]?.arrayValue?.compactMap(\.integerLexemeValue) == compared)

        #expect(try VersionStateAPITests.change(tenant, type, 2, "deprecate", VersionStateAPITests.deprecate).status == 200)
        try expectError(
            try tenant.post(body(type, ac), path: "/api/live_activity_schemas:validate"), status: 409, code: 6, mentioning: refusal, details: 1)
        try expectError(try tenant.post(body(type, ac)), status: 409, code: 6, mentioning: refusal, details: 1)

        #expect(try VersionStateAPITests.change(tenant, type, 2, "disable", VersionStateAPITests.disable).status == 200)
        let dry = try tenant.post(body(type, ac), path: "/api/live_activity_schemas:validate")
        #expect(dry.status == 200, "\(dry.bodyText)")
        #expect(try dry.json()["compatibility"]?["compared_versions"] == [1])
        let published = try tenant.post(body(type, ac))
        #expect(published.status == 200, "\(published.bodyText)")
        #expect(try published.json()["compatibility"]?["compared_versions"] == [1])
        #expect(try published.json()["compatibility"]?["compatible"] == true)

        // Restored, version 2 is a base again under backward_transitive (what version 3 removed
        // from it is inherited now); backward compares with the newest, version 3, only.
        #expect(try VersionStateAPITests.change(tenant, type, 2, "restore").status == 200)
        let again = try tenant.post(body(type, ac), path: "/api/live_activity_schemas:validate")
        let comparedAgain: JSONValue = mode == "backward" ? [3] : [3, 2, 1]
        #expect(try again.json()["compatibility"]?["compared_versions"] == comparedAgain, "\(again.bodyText)")
    }

    @Test func onlyNewProblemsCountAndInheritedOnesAreReportedApart() throws {
        #expect(try tenant.publish("Inherit", Self.ab).status == 200)
        #expect(try tenant.publish("Inherit", Self.a).status == 200)
        try #require(try setPolicy(typePolicyPath("Inherit"), #"{"mode":"backward_transitive","enforce":"reject"}"#).status == 200)
        let addsC = try tenant.publish("Inherit", Self.schema(#"{"a":{"type":"string"},"c":{"type":"string"}}"#))
        #expect(addsC.status == 200, "\(addsC.bodyText)")
        let report = try #require(try addsC.json()["compatibility"])
        #expect(report["compatible"] == true)
        #expect(report["problems"] == [])
        #expect(report["inherited_problems"]?.arrayValue?.map { "\($0["path"]?.stringValue ?? "") v\($0["version"]?.integerLexemeValue ?? 0)" } == ["content-state.b v1"])
        #expect(report["groups"]?.arrayValue?.first?["new"] == false)
        #expect(report["groups"]?.arrayValue?.first?["version_ranges"] == [[1, 1]])
        let removesC = try tenant.publish("Inherit", Self.a)
        try expectError(removesC, status: 409, code: 6, mentioning: "content-state.c (removed, against version 3)", details: 1)
    }

    @Test func requireCompatibleRejectsUnderAWarningPolicy() throws {
        #expect(try tenant.publish("Forced", Self.ab).status == 200)
        try #require(try setPolicy(typePolicyPath("Forced"), #"{"mode":"backward","enforce":"warn"}"#).status == 200)
        try expectError(
            try tenant.post(body("Forced", Self.a, requireCompatible: true)), status: 409, code: 6,
            mentioning: "requireCompatible", details: 1)
        #expect(try tenant.publish("Forced", Self.a).status == 200)
    }

    @Test func aPolicyChangedOnOneReplicaBindsTheNextPublishOnAnother() throws {
        let first = try TestRegistry.shared()
        let second = try TestRegistry(databaseURL: first.databaseURL, poolSize: 2, workers: 2)
        defer { second.stop() }
        let onSecond = Tenant(port: second.port, code: tenant.code, token: tenant.token, accountID: tenant.accountID, tokenID: tenant.tokenID)
        #expect(try onSecond.publish("Replicated", Self.ab).status == 200)
        #expect(try onSecond.publish("Replicated", Self.a).status == 200)
        try #require(try setPolicy(typePolicyPath("Replicated"), #"{"mode":"backward","enforce":"reject"}"#).status == 200)
        try expectError(try onSecond.publish("Replicated", Self.none), status: 409, code: 6, details: 1)
        try #require(try setPolicy(typePolicyPath("Replicated"), #"{"mode":"backward","enforce":"warn"}"#, on: onSecond).status == 200)
        #expect(try tenant.publish("Replicated", Self.none).status == 200)
    }

    @Test func comparisonStopsAtTheLimitAndTheReportSaysSo() throws {
        let shared = try TestRegistry.shared()
        let limited = try TestRegistry(
            databaseURL: shared.databaseURL, poolSize: 2, workers: 2, reviewing: ReviewSettings(maxComparedVersions: 2))
        defer { limited.stop() }
        let onLimited = Tenant(port: limited.port, code: tenant.code, token: tenant.token, accountID: tenant.accountID, tokenID: tenant.tokenID)
        for field in ["p", "q", "r", "s"] {
            #expect(try tenant.publish("Capped", Self.schema(#"{"\#(field)":{"type":"string"}}"#)).status == 200)
        }
        let report = try #require(try onLimited.publish("Capped", Self.schema("{}")).json()["compatibility"])
        #expect(report["compared_versions"] == [4, 3])
        #expect(report["comparison_limit_reached"] == true)
        #expect(report["summary"]?.stringValue?.contains("older ones not compared") == true)
        let unlimited = try tenant.post(body("Capped", Self.schema("{}")), path: "/api/live_activity_schemas:validate")
        #expect(try unlimited.json()["compatibility"]?["compared_versions"] == [5, 4, 3, 2, 1])
        #expect(try unlimited.json()["compatibility"]?["comparison_limit_reached"] == false)
    }
}

/// Concurrent publishes that may be refused are reviewed one after the other.
@Suite struct ConcurrentReviewTests {
    /// Each of `b` as a string and `b` as an integer is compatible with version 1 alone; the
    /// second one published is a type change against the first, so exactly one may pass,
    /// whether a rejecting policy or `requireCompatible` refuses it.
    @Test(arguments: [("reject", false), ("warn", true)])
    func twoConcurrentPublishesThatMayBeRefusedAreReviewedAgainstEachOther(enforce: String, requireCompatible: Bool) throws {
        let tenant = try TestRegistry.shared().makeTenant()
        let rounds = 10
        var outcomes: [[Int]] = []
        for round in 0..<rounds {
            let type = "Race\(round)"
            #expect(try tenant.publish(type, CompatibilityPolicyAPITests.a).status == 200)
            let path = "/api/live_activity_types/\(type)/compatibility_policy?application=\(tenant.code)"
            try #require(try tenant.request("PUT", path, body: #"{"mode":"backward","enforce":"\#(enforce)"}"#).status == 200)
            let bodies: [JSONObject] = ["string", "integer"].map { type in
                [
                    "application": .string(tenant.code), "attributesType": .string("Race\(round)"),
                    "jsonSchema": .string(CompatibilityPolicyAPITests.schema(#"{"a":{"type":"string"},"b":{"type":"\#(type)"}}"#)),
                    "requireCompatible": .bool(requireCompatible),
                ]
            }
            let results = onThreads(2) { index in try tenant.post(bodies[index]) }
            outcomes.append(results.map { (try? $0.get())?.status ?? -1 }.sorted())
        }
        #expect(outcomes == Array(repeating: [200, 409], count: rounds))
    }
}
