import Registry
import Testing
import TestSupport

/// An explicit version more than 1,000 beyond the newest live one moves the type's next-free
/// number there for good: publish and `:validate` warn about it (and still succeed).
@Suite struct VersionJumpAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    func versionWarnings(_ response: RawHTTPResponse) throws -> [JSONValue] {
        (try response.json()["warnings"]?.arrayValue ?? []).filter { $0["path"] == "version" }
    }

    func validate(_ type: String, version: Int) throws -> RawHTTPResponse {
        let body: JSONObject = [
            "application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(SchemaAPITests.flight),
            "version": .number(String(version)),
        ]
        return try tenant.request("POST", "/api/live_activity_schemas:validate", body: JSONWriter.string(.object(body)))
    }

    @Test func aJumpOfMoreThan1000IsWarnedAboutByValidateAndPublish() throws {
        #expect(try tenant.publish("Jump", SchemaAPITests.flight, version: 1).status == 200)
        let dryRun = try validate("Jump", version: 1_002)
        #expect(dryRun.status == 200)
        let warning = try #require(try versionWarnings(dryRun).first)
        #expect(warning["message"]?.stringValue?.contains("version 1002 is 1001 beyond the newest live version, 1") == true)
        let published = try tenant.publish("Jump", SchemaAPITests.flight, version: 2_147_483_647)
        #expect(published.status == 200)
        #expect(try versionWarnings(published).count == 1)
    }

    @Test func aJumpOf1000OrLessOrTheNextFreeNumberIsNot() throws {
        #expect(try tenant.publish("Step", SchemaAPITests.flight, version: 1).status == 200)
        #expect(try versionWarnings(try validate("Step", version: 1_001)).isEmpty)
        let published = try tenant.publish("Step", SchemaAPITests.flight, version: 1_001)
        #expect(try versionWarnings(published).isEmpty)
        #expect(try versionWarnings(try tenant.publish("Step", SchemaAPITests.flight)).isEmpty)
    }

    @Test func aFirstVersionFarAboveOneIsWarnedAbout() throws {
        let published = try tenant.publish("FirstFar", SchemaAPITests.flight, version: 20_260_901)
        #expect(published.status == 200)
        let warning = try #require(try versionWarnings(published).first)
        #expect(warning["message"]?.stringValue?.contains("no live version") == true)
    }

    /// The warning does not depend on the compatibility mode: under `none` nothing is compared,
    /// but the number still moves for good.
    @Test func aJumpIsWarnedAboutUnderModeNoneToo() throws {
        #expect(try tenant.publish("JumpNone", SchemaAPITests.flight, version: 1).status == 200)
        let policy = try tenant.request(
            "PUT", "/api/live_activity_types/JumpNone/compatibility_policy?application=\(tenant.code)", body: #"{"mode":"none","enforce":"warn"}"#)
        #expect(policy.status == 200)
        let warning = try #require(try versionWarnings(try validate("JumpNone", version: 1_002)).first)
        #expect(warning["message"]?.stringValue?.contains("version 1002 is 1001 beyond the newest live version, 1") == true)
        let published = try tenant.publish("JumpNone", SchemaAPITests.flight, version: 5_000)
        #expect(published.status == 200)
        #expect(try versionWarnings(published).count == 1)
        #expect(try published.json()["compatibility"]?["compared_versions"] == .array([]))
    }
}
