import Foundation
import Registry
import RegistryPostgres
import Testing
import TestSupport

/// `Idempotency-Key` on Create: a retry never publishes twice.
@Suite struct IdempotencyAPITests {
    let tenant: Tenant

    init() throws {
        tenant = try TestRegistry.shared().makeTenant()
    }

    func create(_ key: String, schema: String = SchemaAPITests.flight, type: String = "Retry") throws -> RawHTTPResponse {
        let body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema)]
        return try tenant.request(
            "POST", "/api/live_activity_schemas", body: JSONWriter.string(.object(body)), headers: [("Idempotency-Key", key)])
    }

    @Test func sameKeyAndBodyReturnTheOriginalResponse() throws {
        let first = try create("key-1")
        let retry = try create("key-1")
        #expect(first.status == 200)
        #expect(retry.status == 200)
        #expect(retry.body == first.body)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(try tenant.list(query: "&attributesType=Retry").count == 1)
    }

    @Test func sameKeyWithAnotherBodyIsAConflictNamingTheKey() throws {
        _ = try create("key-2")
        let other = try create("key-2", schema: #"{"type":"object"}"#)
        try expectError(other, status: 409, code: 6, mentioning: "key-2")
    }

    @Test func concurrentRetriesPublishOnce() throws {
        let responses = Mutex<[RawHTTPResponse]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let response = try? create("key-3", type: "Race") { responses.withLock { $0.append(response) } }
        }
        let all = responses.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0.status == 200 })
        #expect(Set(all.map(\.bodyText)).count == 1)
        #expect(try tenant.list(query: "&attributesType=Race").count == 1)
    }

    @Test func explicitVersionRetryIsNotAConflict() throws {
        let body: JSONObject = [
            "application": .string(tenant.code), "attributesType": "Explicit", "jsonSchema": .string(SchemaAPITests.flight), "version": 3,
        ]
        let text = JSONWriter.string(.object(body))
        let first = try tenant.request("POST", "/api/live_activity_schemas", body: text, headers: [("Idempotency-Key", "key-4")])
        let retry = try tenant.request("POST", "/api/live_activity_schemas", body: text, headers: [("Idempotency-Key", "key-4")])
        #expect(first.status == 200)
        #expect(retry.status == 200)
    }

    /// A key is an application's own: two tokens each limited to one application of the same
    /// account use one key, with different bodies, and both publish. Per account, the second
    /// would be told 409 and so learn of (and be able to claim) the other application's keys.
    @Test func tokensLimitedToTwoApplicationsUseOneKeyIndependently() throws {
        let registry = try TestRegistry.shared()
        let admin = AdminStore(pool: registry.pool)
        let otherCode = try admin.createApplication(accountID: tenant.accountID, name: "second app")
        let first = try admin.tenant(like: tenant, terms: TokenTerms(scope: .publish, applicationCodes: [tenant.code]))
        let second = try admin.tenant(like: tenant, terms: TokenTerms(scope: .publish, applicationCodes: [otherCode]))
            .on(application: otherCode)
        let headers = [("Idempotency-Key", "shared-ci-key")]
        let publish = { (tenant: Tenant, schema: String) throws -> RawHTTPResponse in
            let body: JSONObject = ["application": .string(tenant.code), "attributesType": "Shared", "jsonSchema": .string(schema)]
            return try tenant.request("POST", "/api/live_activity_schemas", body: JSONWriter.string(.object(body)), headers: headers)
        }
        let inFirst = try publish(first, SchemaAPITests.flight)
        let inSecond = try publish(second, #"{"type":"object","properties":{"other":{"type":"string"}}}"#)
        #expect(inFirst.status == 200, "\(inFirst.bodyText)")
        #expect(inSecond.status == 200, "\(inSecond.bodyText)")
        #expect(inSecond.header("Idempotent-Replayed") == nil)
        #expect(try inSecond.json()["schema"]?["application"]?.stringValue == otherCode)
        // Each key still replays within its own application.
        let retry = try publish(second, #"{"type":"object","properties":{"other":{"type":"string"}}}"#)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.body == inSecond.body)
        try expectError(try publish(first, #"{"type":"object"}"#), status: 409, code: 6, mentioning: "shared-ci-key")
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "has space", "tab\tkey"])
    func malformedKeysAreInvalidArgument(key: String) throws {
        try expectError(try create(key), status: 400, code: 3, mentioning: "Idempotency-Key")
    }
}

import Synchronization
