import Registry
import RegistryAPI
import Testing
import TestSupport

/// `…/{version}:diff` over HTTP: default and explicit `against`, errors naming the field.
@Suite struct DiffAPITests {
    static let v1 = #"{"type":"object","properties":{"terminal":{"type":"object","properties":{"gate":{"type":"string"}}},"status":{"type":"string"}}}"#
    static let v2 = #"{"type":"object","properties":{"terminal":{"type":"object","properties":{"gate":{"type":"integer"}}},"eta":{"type":"string"}}}"#
    static let v3 = #"{"type":"object","properties":{"terminal":{"type":"object","properties":{"gate":{"type":"integer"}}},"eta":{"type":"string","maxLength":30}}}"#

    private static func diff(_ tenant: Tenant, _ version: String, _ query: String = "") throws -> RawHTTPResponse {
        try tenant.request("GET", "/api/live_activity_schemas/Diffed/\(version):diff?application=\(tenant.code)\(query)")
    }

    @Test func diffAgainstThePreviousLiveVersionByDefaultOrTheOneNamed() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        for schema in [Self.v1, Self.v2, Self.v3] { #expect(try tenant.publish("Diffed", schema).status == 200) }

        let latestStep = try Self.diff(tenant, "3").json()
        #expect(latestStep["against"] == .number("2"))
        #expect(latestStep["compatible"] == .bool(true))
        #expect(latestStep["changes"]?.arrayValue?.map { $0["path"]?.stringValue ?? "" } == ["content-state.eta"])
        #expect(latestStep["changes"]?.arrayValue?.first?["property"] == .string("max_length"))

        let whole = try Self.diff(tenant, "3", "&against=1").json()
        #expect(whole["against"] == .number("1"))
        #expect(whole["compatible"] == .bool(false))
        let changes = try #require(whole["changes"]?.arrayValue)
        let summary = changes.map { "\($0["path"]?.stringValue ?? "") \($0["change"]?.stringValue ?? "") \($0["breaking"] == .bool(true))" }
        #expect(summary == ["content-state.terminal.gate type true", "content-state.status removed true", "content-state.eta added false"])
        #expect(whole["problems"]?.arrayValue?.count == 2)

        // Deleting version 2 makes 1 the previous live version of 3.
        #expect(try tenant.request("DELETE", "/api/live_activity_schemas/Diffed/2?application=\(tenant.code)").status == 200)
        #expect(try Self.diff(tenant, "3").json()["against"] == .number("1"))
    }

    @Test func missingVersionsAndBadArgumentsAreReportedNamingThem() throws {
        let tenant = try TestRegistry.shared().makeTenant()
        _ = try tenant.publish("Diffed", Self.v1)
        let first = try Self.diff(tenant, "1")
        #expect(first.status == 404, "version 1 has nothing before it")
        #expect(try first.json()["message"]?.stringValue?.contains("against") == true)
        #expect(try Self.diff(tenant, "9").status == 404)
        #expect(try Self.diff(tenant, "1", "&against=9").status == 404)
        let bad = try Self.diff(tenant, "1", "&against=x")
        #expect(bad.status == 400)
        #expect(try bad.json()["message"]?.stringValue?.hasPrefix("against") == true)
        #expect(try Self.diff(tenant, "1", "&against=1").json()["changes"] == .array([]))
        #expect(try tenant.request("POST", "/api/live_activity_schemas/Diffed/1:diff?application=\(tenant.code)").status == 405)
    }
}
