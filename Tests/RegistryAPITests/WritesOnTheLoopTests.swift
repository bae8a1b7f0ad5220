import Foundation
import HTTPServer
import Registry
import RegistryPostgres
import Testing
import TestSupport

@testable import RegistryAPI

/// Writes that are one statement (a version's deletion, a policy's setting and removal, each
/// with its audit event) are started on the event loop like reads: they need no handler thread,
/// so they are answered while every handler thread is held by a publish waiting on a lock. A
/// publish reads what it needs first there too, and a replay of its key is answered there.
@Suite struct WritesOnTheLoopTests {
    /// Every route with a token that is not a GET, and where its work runs: a new one is placed
    /// (and tested) on purpose.
    static let placement: [String: String] = [
        "DELETE /api/live_activity_schemas/{attributesType}/{version}": "loop",
        "PUT /api/applications/{application}/compatibility_policy": "loop",
        "DELETE /api/applications/{application}/compatibility_policy": "loop",
        "PUT /api/live_activity_types/{attributesType}/compatibility_policy": "loop",
        "DELETE /api/live_activity_types/{attributesType}/compatibility_policy": "loop",
        "POST /api/live_activity_schemas": "loop, then a handler thread for the publish transaction and its review",
        "POST /api/live_activity_schemas:validate": "loop, then a handler thread for the review",
        "POST /api/live_activity_schemas:lookup": "loop: small texts hashed on the loop, large ones on a handler thread",
        "POST /api/live_activity_schemas/{attributesType}/latest:check": "loop: small schemas checked on the loop, large ones on a handler thread",
        "POST /api/live_activity_schemas/{attributesType}/{version}:check": "loop: small schemas checked on the loop, large ones on a handler thread",
        "POST /api/live_activities:preview": "loop: small schemas previewed on the loop, large ones on a handler thread",
    ]

    @Test func everyRouteThatIsNotAGETIsPlaced() {
        let routes = Set(RegistryAPI.apiRoutes.filter { $0.method != "GET" && $0.requiresToken }.map(\.key))
        #expect(routes == Set(Self.placement.keys))
    }

    /// Deciding each write on the loop starts its statement (`.later`), and following it answers
    /// on the loop; the handler threads are never asked.
    @Test func eachLoopWriteIsDecidedAsAStatementAndAnsweredOnTheLoop() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Decided", SchemaAPITests.flight).status == 200)
        let api = registry.api
        let policy = #"{"mode":"backward","enforce":"reject"}"#
        let requests: [(method: String, path: String, body: String?, status: Int)] = [
            ("PUT", "/api/applications/\(tenant.code)/compatibility_policy", policy, 200),
            ("PUT", "/api/live_activity_types/Decided/compatibility_policy?application=\(tenant.code)", policy, 200),
            ("DELETE", "/api/live_activity_types/Decided/compatibility_policy?application=\(tenant.code)", nil, 200),
            ("DELETE", "/api/live_activity_types/Decided/compatibility_policy?application=\(tenant.code)", nil, 404),
            ("DELETE", "/api/applications/\(tenant.code)/compatibility_policy", nil, 200),
            ("DELETE", "/api/live_activity_schemas/Decided/1?application=\(tenant.code)", nil, 200),
            ("DELETE", "/api/live_activity_schemas/Decided/1?application=\(tenant.code)", nil, 404),
        ]
        for probe in requests {
            let parts = probe.path.split(separator: "?", maxSplits: 1)
            let query = parts.count > 1 ? [("application", tenant.code)] : []
            let request = HTTPRequest(
                method: probe.method, path: String(parts[0]), query: query,
                headers: [("Authorization", "Api \(tenant.token)"), ("Content-Type", "application/json")],
                body: Array((probe.body ?? "").utf8))
            guard case .later(let write) = api.decide(request), case .respond(let response)? = completedHere(write) else {
                Issue.record("\(probe.method) \(probe.path): started on the loop and answered there")
                continue
            }
            #expect(response.status == probe.status, "\(probe.method) \(probe.path): \(String(decoding: response.body, as: UTF8.self))")
        }
        let changes = try AuditAPITests.events(registry, tenant).filter { [.publish, .policyChange, .delete].contains($0.action) }
        #expect(changes.map(\.action) == [.publish, .policyChange, .policyChange, .policyChange, .policyChange, .delete])
    }

    /// A publish reads its application and its key's recorded response on the loop; the publish
    /// itself is handed to a handler thread, and a replay is answered on the loop.
    @Test func aPublishIsDecidedOnTheLoopAndAReplayAnsweredThere() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let body: JSONObject = [
            "application": .string(tenant.code), "attributesType": "Keyed", "jsonSchema": .string(SchemaAPITests.flight),
        ]
        let request = HTTPRequest(
            method: "POST", path: "/api/live_activity_schemas",
            headers: [("Authorization", "Api \(tenant.token)"), ("Content-Type", "application/json"), ("Idempotency-Key", "key-1")],
            body: Array(JSONWriter.string(.object(body)).utf8))
        guard case .later(let reads) = registry.api.decide(request), case .work(let publish)? = completedHere(reads) else {
            Issue.record("the application and the key are read on the loop, and the publish handed on")
            return
        }
        let published = publish().answeredNow
        #expect(published.status == 200)
        guard case .later(let replayReads) = registry.api.decide(request), case .respond(let replayed)? = completedHere(replayReads)
        else {
            Issue.record("a replay is answered on the loop")
            return
        }
        #expect(replayed.status == 200 && replayed.body == published.body)
        #expect(try tenant.list(query: "&attributesType=Keyed").count == 1, "published once")
    }

    /// With one handler thread, held by a publish waiting for a lock, the loop's writes (and the
    /// reads after them) are still answered; the publish finishes once the lock is let go.
    @Test func loopWritesAreAnsweredWhileEveryHandlerThreadIsHeld() throws {
        var keyed: RawHTTPResponse?
        try whileTheOnlyHandlerThreadIsHeld(prepare: { tenant throws in
            #expect(try tenant.publish("Gone", SchemaAPITests.flight).status == 200)
            keyed = try tenant.request(
                "POST", "/api/live_activity_schemas", body: AuditAPITests.publishBody(tenant, "Keyed", SchemaAPITests.flight),
                headers: [("Idempotency-Key", "held-1")])
            #expect(keyed?.status == 200)
        }) { tenant in
            let policy = #"{"mode":"backward","enforce":"warn"}"#
            let answers = [
                try tenant.request("PUT", "/api/applications/\(tenant.code)/compatibility_policy", body: policy),
                try tenant.request("PUT", "/api/live_activity_types/Gone/compatibility_policy?application=\(tenant.code)", body: policy),
                try tenant.request("DELETE", "/api/live_activity_types/Gone/compatibility_policy?application=\(tenant.code)"),
                try tenant.request("DELETE", "/api/applications/\(tenant.code)/compatibility_policy"),
                try tenant.request("DELETE", "/api/live_activity_schemas/Gone/1?application=\(tenant.code)"),
                try tenant.request("GET", "/api/live_activity_schemas/Gone/1?application=\(tenant.code)"),
                try tenant.request(
                    "POST", "/api/live_activity_schemas", body: AuditAPITests.publishBody(tenant, "Keyed", SchemaAPITests.flight),
                    headers: [("Idempotency-Key", "held-1")]),
            ]
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 404, 200], "\(answers.map(\.bodyText))")
            #expect(answers.last?.body == keyed?.body, "the replay, answered on the loop")
        }
    }
}
