import HTTPServer
import Registry
import RegistryPostgres
import Testing
import TestSupport

@testable import RegistryAPI

/// The journey builder's POSTs (`:check`, `latest:check`, `:preview`, `:lookup`) are decided on
/// the event loop: the body is checked first, from memory; the application, the newest version
/// and the version are read without a thread waiting; a small schema is checked right there,
/// and only a large one goes to a handler thread.
@Suite struct ChecksOnTheLoopTests {
    /// One request of a route: its path and body (`CODE` stands for the tenant's application)
    /// and the status it answers.
    struct Probe: Sendable {
        let path: String
        let body: JSONObject
        let status: Int
    }

    static let unknownApplication: JSONValue = "NONE0-NONE0"
    static let update: JSONObject = ["application": "CODE", "event": "update", "content_state": ["gate": "A1", "status": "boarding"]]
    static let push: JSONObject = [
        "application": "CODE", "bundle_id": "com.example.flights", "live_activity_id": "act-1",
        "live_activity": [
            "content-state": ["gate": "A1", "status": "boarding"], "attributes-type": "Checked", "attributes": ["flightNumber": "LH 1"],
        ],
    ]
    static let lookup: JSONObject = ["application": "CODE", "attributesType": "Checked", "jsonSchema": .string(SchemaAPITests.flight)]

    static func with(_ body: JSONObject, _ key: String, _ value: JSONValue) -> JSONObject {
        var changed = body
        changed[key] = value
        return changed
    }

    /// Requests whose answer needs the store: deciding them with the application not in memory
    /// starts a read, and following the reads answers on the loop.
    static let loopChecks: [String: [Probe]] = [
        "POST /api/live_activity_schemas/{attributesType}/{version}:check": [
            Probe(path: "/api/live_activity_schemas/Checked/1:check", body: update, status: 200),
            Probe(path: "/api/live_activity_schemas/Checked/9:check", body: update, status: 404),
            Probe(path: "/api/live_activity_schemas/Checked/1:check", body: with(update, "application", unknownApplication), status: 404),
        ],
        "POST /api/live_activity_schemas/{attributesType}/latest:check": [
            Probe(path: "/api/live_activity_schemas/Checked/latest:check", body: update, status: 200),
            Probe(path: "/api/live_activity_schemas/Unpublished/latest:check", body: update, status: 404),
        ],
        "POST /api/live_activities:preview": [
            Probe(path: "/api/live_activities:preview", body: push, status: 200),
            Probe(path: "/api/live_activities:preview", body: with(push, "schema_version", 1), status: 200),
            Probe(path: "/api/live_activities:preview", body: with(push, "schema_version", 9), status: 404),
            Probe(path: "/api/live_activities:preview", body: with(push, "live_activity", ["content-state": [:]]), status: 200),
        ],
        "POST /api/live_activity_schemas:lookup": [
            Probe(path: "/api/live_activity_schemas:lookup", body: lookup, status: 200),
            Probe(path: "/api/live_activity_schemas:lookup", body: with(lookup, "attributesType", "Unpublished"), status: 404),
        ],
    ]

    /// Malformed bodies, refused from memory before the application is looked up (even an
    /// unknown one).
    static let refusedFirst: [Probe] = [
        Probe(
            path: "/api/live_activity_schemas/Checked/1:check",
            body: with(with(update, "event", "pause"), "application", unknownApplication), status: 400),
        Probe(path: "/api/live_activity_schemas/Checked/latest:check", body: with(update, "content_state", 1), status: 400),
        Probe(path: "/api/live_activities:preview", body: with(push, "bundle_id", .null), status: 400),
        Probe(path: "/api/live_activity_schemas:lookup", body: with(lookup, "jsonSchema", ""), status: 400),
    ]

    static let routes = loopChecks.keys.sorted()

    /// `probe`'s body for `tenant`: `CODE` replaced by the tenant's application.
    static func body(_ tenant: Tenant, _ probe: Probe) -> String {
        JSONWriter.string(.object(probe.body)).replacing("\"CODE\"", with: "\"\(tenant.code)\"")
    }

    static func request(_ tenant: Tenant, _ probe: Probe) -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: probe.path,
            headers: [("Authorization", "Api \(tenant.token)"), ("Content-Type", "application/json")],
            body: Array(body(tenant, probe).utf8))
    }

    /// An API whose lookup cache holds the tenant's token but not its application.
    static func apiKnowingTheToken(_ registry: TestRegistry, _ tenant: Tenant) -> RegistryAPI {
        let api = RegistryAPI(
            store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60))
        let token = api.handle(HTTPRequest(method: "GET", path: "/api/token", headers: [("Authorization", "Api \(tenant.token)")]))
        #expect(token.status == 200)
        return api
    }

    /// With one handler thread, held by a publish waiting for a lock, the checks, the preview
    /// and the lookup of small schemas are still answered; the publish finishes once the lock
    /// is let go.
    @Test func checksAreAnsweredWhileEveryHandlerThreadIsHeld() throws {
        try whileTheOnlyHandlerThreadIsHeld(prepare: { tenant throws in
            #expect(try tenant.publish("Checked", SchemaAPITests.flight).status == 200)
        }) { tenant in
            let answers = try Self.routes.compactMap { Self.loopChecks[$0]?.first }.map { probe in
                try tenant.request("POST", probe.path, body: Self.body(tenant, probe))
            }
            #expect(answers.map(\.status) == [200, 200, 200, 200], "\(answers.map(\.bodyText))")
        }
    }
}
