import Foundation
import Registry
import RegistryAPI
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// The audit trail over HTTP: each change writes exactly one event in its own transaction, a
/// change that fails writes none, and `GET /api/audit_events` pages and filters them.
@Suite struct AuditAPITests {
    static let flight = SchemaAPITests.flight
    static let withoutGate = PublishCompatibilityAPITests.withoutGate

    /// Every event of the tenant's account, oldest first, read with the store's own query.
    static func events(_ registry: TestRegistry, _ tenant: Tenant) async throws -> [AuditEvent] {
        try await PostgresSchemaStore(pool: registry.pool).auditEvents(AuditQuery(order: .oldestFirst, accountID: tenant.accountID, limit: 1000))
    }

    static func publishBody(_ tenant: Tenant, _ type: String, _ schema: String, version: Int? = nil, requireCompatible: Bool = false)
        -> String
    {
        var body: JSONObject = ["application": .string(tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema)]
        if let version { body["version"] = .number(String(version)) }
        if requireCompatible { body["requireCompatible"] = true }
        return JSONWriter.string(.object(body))
    }

    @Test func everyChangeWritesExactlyOneEventWithWhoWhatAndTheRequestID() async throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let publisher = try AdminStore(pool: registry.pool).tenant(like: owner, terms: TokenTerms(scope: .admin, name: "ci pipeline"))
        let baseline = try await Self.events(registry, owner).count  // the account's application and tokens

        let first = try publisher.request(
            "POST", "/api/live_activity_schemas", body: Self.publishBody(owner, "Audited", Self.flight),
            headers: [("X-Request-Id", "req-audit-1")])
        #expect(first.status == 200, "\(first.bodyText)")
        var events = try await Self.events(registry, owner)
        #expect(events.count == baseline + 1)
        let published = try #require(events.last)
        #expect(published.action == .publish && published.applicationCode == owner.code)
        #expect(published.attributesType == "Audited" && published.version == 1)
        #expect(published.actor == .token && published.tokenID == publisher.tokenID && published.tokenName == "ci pipeline")
        #expect(published.requestID == "req-audit-1")
        #expect(published.details["compatibility"]?["compatible"] == true)
        #expect(!"\(published)".contains(publisher.token), "never the secret")

        // The version records its publisher; an unnamed token shows as "token <id>".
        let got = try owner.request("GET", "/api/live_activity_schemas/Audited/1?application=\(owner.code)")
        #expect(try got.json()["schema"]?["created_by"] == "ci pipeline")
        let unnamed = try owner.publish("Audited", Self.flight)
        #expect(try unnamed.json()["schema"]?["created_by"] == .string("token \(owner.tokenID)"))
        // Without an X-Request-Id from the caller, the event has the id the response carries.
        let generated = try #require(unnamed.header("X-Request-Id"))
        await #expect(try Self.events(registry, owner).last?.requestID == generated)

        // Accepted under warn: the problems are in the event.
        #expect(try publisher.publish("Audited", Self.withoutGate).status == 200)
        events = try await Self.events(registry, owner)
        #expect(events.count == baseline + 3)
        let accepted = try #require(events.last?.details["compatibility"])
        #expect(accepted["compatible"] == false)
        #expect(accepted["problems"]?.arrayValue?.isEmpty == false, "\(accepted)")

        // An idempotent publish writes one event; its replay writes none.
        let keyed = Self.publishBody(owner, "Keyed", Self.flight)
        for _ in 0..<2 {
            #expect(try publisher.request("POST", "/api/live_activity_schemas", body: keyed, headers: [("Idempotency-Key", "audit-key")]).status == 200)
        }
        await #expect(try Self.events(registry, owner).count == baseline + 4)

        let deleted = try publisher.request(
            "DELETE", "/api/live_activity_schemas/Audited/1?application=\(owner.code)", headers: [("X-Request-Id", "req-audit-del")])
        #expect(deleted.status == 200)
        events = try await Self.events(registry, owner)
        #expect(events.count == baseline + 5)
        let deletion = try #require(events.last)
        #expect(deletion.action == .delete && deletion.version == 1 && deletion.attributesType == "Audited")
        #expect(deletion.requestID == "req-audit-del" && deletion.tokenName == "ci pipeline")
    }

    @Test func aChangeThatFailsWritesNoEvent() async throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let reader = try AdminStore(pool: registry.pool).tenant(like: owner, terms: TokenTerms(scope: .read))
        #expect(try owner.publish("Failing", Self.flight, version: 1).status == 200)
        let baseline = try await Self.events(registry, owner).count

        let failures: [(String, RawHTTPResponse)] = [
            ("409 existing version", try owner.publish("Failing", Self.flight, version: 1)),
            ("409 requireCompatible", try owner.request(
                "POST", "/api/live_activity_schemas", body: Self.publishBody(owner, "Failing", Self.withoutGate, requireCompatible: true))),
            ("400 invalid schema", try owner.publish("Failing", #"{"type":"string"}"#)),
            ("403 read scope", try reader.publish("Failing", Self.flight)),
            ("404 delete unknown", try owner.request("DELETE", "/api/live_activity_schemas/Failing/9?application=\(owner.code)")),
            ("403 read scope delete", try reader.request("DELETE", "/api/live_activity_schemas/Failing/1?application=\(owner.code)")),
        ]
        for (what, response) in failures {
            #expect(response.status >= 400, "\(what): \(response.bodyText)")
        }
        await #expect(try Self.events(registry, owner).count == baseline, "no event for a failed change")
        #expect(try owner.list(query: "&attributesType=Failing").count == 1)
    }

    @Test func aConnectionKilledMidPublishWritesNeitherVersionNorEvent() async throws {
        let registry = try TestRegistry(databaseURL: TestPostgres.shared.makeDatabase())
        defer { registry.stop() }
        let owner = try registry.makeTenant()
        #expect(try owner.publish("Killed", Self.flight).status == 200)
        let baseline = try await Self.events(registry, owner).count

        // Hold the type's version counter so the publish stops inside its transaction.
        let held = try HeldCounter(databaseURL: registry.databaseURL, attributesType: "Killed")
        let outcome = Mutex<RawHTTPResponse?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.withLock { $0 = try? owner.publish("Killed", Self.withoutGate) }
            finished.signal()
        }
        let victim = try #require(try held.waitingPublish(), "the publish never waited on the counter")
        try held.terminate(victim)
        try held.release()
        #expect(finished.wait(timeout: .now() + 30) == .success)

        let response = try #require(outcome.withLock { $0 })
        #expect(response.status == 503 || response.status == 500, "\(response.bodyText)")
        #expect(try owner.list(query: "&attributesType=Killed").count == 1, "no version written")
        await #expect(try Self.events(registry, owner).count == baseline, "no event written")
    }

    @Test func auditEventsPageNewestFirstAndFilterByTypeActionAndTime() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let otherApplication = try AdminStore(pool: registry.pool).createApplication(accountID: owner.accountID, name: "elsewhere")
        for _ in 0..<5 { #expect(try owner.publish("Alpha", Self.flight).status == 200) }
        for _ in 0..<2 { #expect(try owner.publish("Beta", Self.flight).status == 200) }
        #expect(try owner.request("DELETE", "/api/live_activity_schemas/Alpha/2?application=\(owner.code)").status == 200)
        #expect(try owner.on(application: otherApplication).publish("Alpha", Self.flight).status == 200)

        func page(_ query: String) throws -> (events: [JSONValue], next: String?) {
            let response = try owner.request("GET", "/api/audit_events?application=\(owner.code)\(query)")
            #expect(response.status == 200, "\(query): \(response.bodyText)")
            let body = try response.json()
            return (body["audit_events"]?.arrayValue ?? [], body["next_page_token"]?.stringValue)
        }

        var ids: [Int64] = []
        var token: String?
        var pages = 0
        repeat {
            let (events, next) = try page("&pageSize=3" + (token.map { "&pageToken=\($0)" } ?? ""))
            ids += events.compactMap { $0["id"]?.int64 }
            #expect(events.allSatisfy { $0["application"]?.stringValue == owner.code })
            token = next
            pages += 1
        } while token != nil && pages < 10
        // 5 + 2 publishes and 1 delete of this application (its creation event belongs to none
        // of its versions but is the application's too).
        let all = try page("&pageSize=100").events
        #expect(ids.count == all.count && ids.count >= 8 && pages == (ids.count + 2) / 3, "\(ids)")
        #expect(ids == ids.sorted(by: >), "newest first")

        #expect(try page("&attributesType=Beta").events.count == 2)
        let deletes = try page("&action=delete").events
        #expect(deletes.count == 1 && deletes.first?["version"]?.int == 2)
        #expect(try page("&action=publish&attributesType=Alpha").events.count == 5)
        #expect(try page("&since=2999-01-01T00:00:00Z").events.isEmpty)
        #expect(try page("&until=2000-01-01T00:00:00Z").events.isEmpty)
        #expect(try page("&since=2000-01-01T00:00:00Z&until=2999-01-01T00:00:00Z").events.count == all.count)

        for (query, field) in [
            ("&since=yesterday", "since"), ("&until=2026-13-01T00:00:00Z", "until"), ("&action=rename", "action"),
            ("&pageToken=bm9wZQ", "pageToken"), ("&pageSize=1001", "pageSize"), ("&attributesType=a%2Fb", "attributesType"),
        ] {
            try expectError(
                try owner.request("GET", "/api/audit_events?application=\(owner.code)\(query)"), status: 400, code: 3, mentioning: field)
        }
    }
}

extension JSONValue {
    var int: Int? { integerLexemeValue }
}
