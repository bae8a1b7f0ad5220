import Foundation
import HTTPServer
import Registry
import RegistryPostgres
import Testing
import TestSupport

@testable import RegistryAPI

/// Writes that are one statement (a version's deletion, a policy's setting and removal, each
/// with its audit event) are read on the event loop like reads, and a publish's transaction
/// holds one of the loop's sessions: none needs a handler thread, so they are answered while
/// every handler thread is held and another publish waits on a lock, and so is a replay of a
/// publish's key.
@Suite struct WritesOnTheLoopTests {
    /// With its one handler thread held and a publish waiting for a lock, the loop's writes,
    /// a publish of another type (and the reads after them) are still answered; the waiting
    /// publish finishes once the lock is let go.
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
                try tenant.publish("Fresh", SchemaAPITests.flight),
                try tenant.request("GET", "/api/live_activity_schemas/Fresh/1?application=\(tenant.code)"),
            ]
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 404, 200, 200, 200], "\(answers.map(\.bodyText))")
            #expect(answers[6].body == keyed?.body, "the replay, answered on the loop")
        }
    }
}
