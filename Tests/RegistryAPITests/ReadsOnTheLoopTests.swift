import HTTPServer
import Registry
import RegistryPostgres
import Testing
import TestSupport

@testable import RegistryAPI

/// The single-statement reads of the other GETs (type index, applications, policies, audit
/// trail, diffs) are read on the event loop like a version: with the token and the application
/// in memory, deciding such a request starts its read, and following the reads answers
/// exactly as a request answered where no loop runs.
@Suite struct ReadsOnTheLoopTests {
    /// One request of a route: its path and query (`CODE` stands for the tenant's application)
    /// and the status it answers.
    struct Probe: Sendable {
        let path: String
        let query: [(String, String)]
        let status: Int
    }

    /// The routes whose reads the loop drives, by `METHOD /template`, each with the requests
    /// that show it: a route moved onto the loop is added here and tested like the others.
    static let loopReads: [String: [Probe]] = [
        // `after=now`, and requests parked then woken, in ChangeFeedOnTheLoopTests.
        "GET /api/changes": [
            Probe(path: "/api/changes", query: [("application", "CODE")], status: 200),
            Probe(path: "/api/changes", query: [("application", "CODE"), ("pageSize", "1")], status: 200),
            Probe(path: "/api/changes", query: [("application", "CODE"), ("after", ChangeFeedOnTheLoopTests.farCursor)], status: 200),
            Probe(path: "/api/changes", query: [("application", "NONE0-NONE0"), ("wait", "5")], status: 404),
        ],
        "GET /api/live_activity_types": [
            Probe(path: "/api/live_activity_types", query: [("application", "CODE"), ("pageSize", "1")], status: 200),
            Probe(path: "/api/live_activity_types", query: [("application", "CODE"), ("prefix", "Comp"), ("pageSize", "10")], status: 200),
        ],
        "GET /api/applications": [
            Probe(path: "/api/applications", query: [], status: 200)
        ],
        "GET /api/applications/{application}/compatibility_policy": [
            Probe(path: "/api/applications/CODE/compatibility_policy", query: [], status: 200)
        ],
        "GET /api/live_activity_types/{attributesType}/compatibility_policy": [
            Probe(path: "/api/live_activity_types/Compared/compatibility_policy", query: [("application", "CODE")], status: 200)
        ],
        "GET /api/audit_events": [
            Probe(path: "/api/audit_events", query: [("application", "CODE")], status: 200),
            Probe(path: "/api/audit_events", query: [("application", "CODE"), ("pageSize", "1")], status: 200),
        ],
        "GET /api/live_activity_schemas/{attributesType}/{version}:diff": [
            Probe(path: "/api/live_activity_schemas/Compared/2:diff", query: [("application", "CODE")], status: 200),
            Probe(path: "/api/live_activity_schemas/Compared/2:diff", query: [("application", "CODE"), ("against", "1")], status: 200),
            Probe(path: "/api/live_activity_schemas/Compared/1:diff", query: [("application", "CODE")], status: 404),
            Probe(path: "/api/live_activity_schemas/Compared/2:diff", query: [("application", "CODE"), ("against", "7")], status: 404),
            // The application is checked before `against`.
            Probe(path: "/api/live_activity_schemas/Compared/2:diff", query: [("application", "NONE0-NONE0"), ("against", "x")], status: 404),
        ],
    ]

    /// The other GET routes that need a token, and where they are answered: every GET route is
    /// in one of the two tables, so a new one is placed (and tested) on purpose.
    static let elsewhere: [String: String] = [
        "GET /api/live_activity_schemas": "on the loop up to 17 rows (ListOnTheLoopTests)",
        "GET /api/live_activity_schemas/{attributesType}/{version}": "on the loop, then the response cache (DecideOnceTests)",
        "GET /api/live_activity_schemas/{attributesType}/{version}/form": "on the loop, then the response cache",
        "GET /api/live_activity_schemas/{attributesType}/latest": "on the loop, then the newest-version cache",
        "GET /api/live_activity_schemas/{attributesType}/latest/form": "on the loop, then the newest-version cache",
        "GET /api/token": "from memory once the token is known (theTokenIsShownFromMemory)",
    ]

    static let second =
        #"{"type":"object","properties":{"gate":{"type":"string"},"status":{"type":"string"}},"attributes":{"properties":{"flightNumber":{"type":"string"},"airline":{"type":"string"}},"required":["flightNumber"]}}"#

    @Test func everyGETRouteWithATokenIsPlaced() {
        let routes = Set(RegistryAPI.apiRoutes.filter { $0.method == "GET" && $0.requiresToken }.map(\.key))
        #expect(Set(Self.loopReads.keys).isDisjoint(with: Self.elsewhere.keys))
        #expect(routes == Set(Self.loopReads.keys).union(Self.elsewhere.keys))
    }

    @Test(arguments: loopReads.keys.sorted())
    func theRouteIsReadOnTheLoopAndAnswersAsWhenAnsweredHere(route: String) throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Compared", SchemaAPITests.flight).status == 200)
        #expect(try tenant.publish("Compared", Self.second).status == 200)
        let api = RegistryAPI(
            store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60))
        let router = Router(routes: RegistryAPI.apiRoutes)
        for probe in Self.loopReads[route] ?? [] {
            let request = HTTPRequest(
                method: "GET", path: probe.path.replacing("CODE", with: tenant.code),
                query: probe.query.map { ($0.0, $0.1.replacing("CODE", with: tenant.code)) },
                headers: [("Authorization", "Api \(tenant.token)")])
            guard case .matched(let match) = router.match(method: "GET", path: request.path) else {
                Issue.record("\(probe.path) is routed")
                continue
            }
            #expect(match.route.key == route, "\(probe.path) is a request of its route")
            // Answered here first, which also puts the token and the application in memory.
            let expected = api.handle(request)
            #expect(expected.status == probe.status, "\(probe.path) \(probe.query): \(String(decoding: expected.body, as: UTF8.self))")
            guard case .later(let read) = api.decide(request) else {
                Issue.record("\(probe.path) \(probe.query): read without a thread waiting")
                continue
            }
            guard case .respond(let response) = completedHere(read) else {
                Issue.record("\(probe.path) \(probe.query): answered on the loop once read")
                continue
            }
            #expect(response.status == expected.status, "\(probe.path) \(probe.query)")
            #expect(response.body == expected.body, "\(probe.path) \(probe.query)")
        }
    }

    @Test func theTokenIsShownFromMemory() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let api = RegistryAPI(
            store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now, caching: CacheSettings(lookupSeconds: 60))
        let request = HTTPRequest(method: "GET", path: "/api/token", headers: [("Authorization", "Api \(tenant.token)")])
        let expected = api.handle(request)
        #expect(expected.status == 200)
        guard case .respond(let response) = api.decide(request) else {
            Issue.record("a known token is shown on the event loop")
            return
        }
        #expect(response.status == 200 && response.body == expected.body)
    }

    @Test func aDiffOfLargeTextsIsComputedOnAHandlerThread() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        let padding = String(repeating: "x", count: 20_000)
        for field in ["a", "b"] {
            let schema = #"{"type":"object","description":"\#(padding)","properties":{"\#(field)":{"type":"string"}}}"#
            #expect(try tenant.publish("LargeDiff", schema).status == 200)
        }
        let api = RegistryAPI(store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now)
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_schemas/LargeDiff/2:diff", query: [("application", tenant.code)],
            headers: [("Authorization", "Api \(tenant.token)")])
        guard case .later(let read) = api.decide(request), case .work(let work)? = completedHere(read) else {
            Issue.record("both texts are read on the loop, and the diff of 20 KB texts is handed on")
            return
        }
        let response = work().answeredNow
        #expect(response.status == 200)
        #expect(response.body == api.handle(request).body)
    }

    @Test func theWholeTypeIndexIsReadOnAHandlerThread() throws {
        let registry = try TestRegistry.shared()
        let tenant = try registry.makeTenant()
        #expect(try tenant.publish("Indexed", SchemaAPITests.flight).status == 200)
        let api = RegistryAPI(store: PostgresSchemaStore(pool: registry.pool), clock: TestClock().now)
        let request = HTTPRequest(
            method: "GET", path: "/api/live_activity_types", query: [("application", tenant.code)],
            headers: [("Authorization", "Api \(tenant.token)")])
        guard case .later(let read) = api.decide(request), case .work(let work)? = completedHere(read) else {
            Issue.record("an index without a page size has no bound on its rows: a handler thread reads it")
            return
        }
        let response = work().answeredNow
        #expect(response.status == 200)
        #expect(try JSONParser.parse(response.body)["types"]?.arrayValue?.count == 1)
    }
}
