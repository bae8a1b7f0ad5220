import HTTPServer
import Registry
import Testing

@testable import RegistryAPI

/// Each route declares, with its method and path, what its token must allow and where its work
/// runs: this table is the reviewed copy, so a new route (or a moved one) is placed on purpose.
/// What the placements mean is shown by behaviour: `WritesOnTheLoopTests`,
/// `ChecksOnTheLoopTests` and `ChangeFeedOnTheLoopTests` hold every handler thread and still get
/// their answers; `MemoryFirstTests` and `DecideOnceTests` get warm answers without the store.
@Suite struct RoutePlacementTests {
    typealias Placement = Route.Placement

    static let declared: [String: (placement: Placement, scope: TokenScope?)] = [
        "GET /api/live_activity_schemas": (.loop, .read),
        "POST /api/live_activity_schemas": (.loop, .publish),
        "POST /api/live_activity_schemas:validate": (.loop, .read),
        "POST /api/live_activity_schemas:lookup": (.loop, .read),
        "GET /api/live_activity_types": (.loop, .read),
        "GET /api/live_activity_schemas/{attributesType}/latest": (.loop, .read),
        "GET /api/live_activity_schemas/{attributesType}/latest/form": (.loop, .read),
        "POST /api/live_activity_schemas/{attributesType}/latest:check": (.loop, .read),
        "GET /api/live_activity_schemas/{attributesType}/{version}": (.loop, .read),
        "DELETE /api/live_activity_schemas/{attributesType}/{version}": (.loop, .admin),
        "GET /api/live_activity_schemas/{attributesType}/{version}/form": (.loop, .read),
        "POST /api/live_activity_schemas/{attributesType}/{version}:check": (.loop, .read),
        "GET /api/live_activity_schemas/{attributesType}/{version}:diff": (.loop, .read),
        "POST /api/live_activity_schemas/{attributesType}/{version}:deprecate": (.loop, .publish),
        "POST /api/live_activity_schemas/{attributesType}/{version}:disable": (.loop, .admin),
        "POST /api/live_activity_schemas/{attributesType}/{version}:restore": (.loop, .publish),
        "PUT /api/live_activity_types/{attributesType}/latest_pin": (.loop, .publish),
        "DELETE /api/live_activity_types/{attributesType}/latest_pin": (.loop, .publish),
        "POST /api/live_activities:preview": (.loop, .read),
        "GET /api/live_activity_schemas/{attributesType}/{version}/usage": (.loop, .read),
        "GET /api/live_activity_types/{attributesType}/usage": (.loop, .read),
        "GET /api/applications": (.loop, .read),
        "GET /api/token": (.memory, .read),
        "GET /api/audit_events": (.loop, .admin),
        "GET /api/applications/{application}/compatibility_policy": (.loop, .read),
        "PUT /api/applications/{application}/compatibility_policy": (.loop, .admin),
        "DELETE /api/applications/{application}/compatibility_policy": (.loop, .admin),
        "GET /api/live_activity_types/{attributesType}/compatibility_policy": (.loop, .read),
        "PUT /api/live_activity_types/{attributesType}/compatibility_policy": (.loop, .admin),
        "DELETE /api/live_activity_types/{attributesType}/compatibility_policy": (.loop, .admin),
        "GET /api/changes": (.loop, .read),
        "GET /api/live_activity_types/{attributesType}/metadata": (.loop, .read),
        "PUT /api/live_activity_types/{attributesType}/metadata": (.loop, .publish),
        "PUT /api/live_activity_schemas/{attributesType}/{version}/metadata": (.loop, .publish),
        "GET /api/search": (.loop, .read),
        "GET /api/applications/{application}/webhooks": (.loop, .admin),
        "POST /api/applications/{application}/webhooks": (.loop, .admin),
        "GET /api/applications/{application}/webhooks/{id}": (.loop, .admin),
        "PATCH /api/applications/{application}/webhooks/{id}": (.loop, .admin),
        "DELETE /api/applications/{application}/webhooks/{id}": (.loop, .admin),
        "POST /api/applications/{application}/webhooks/{id}:rotate_secret": (.loop, .admin),
        "POST /api/applications/{application}/webhooks/{id}:test": (.loop, .admin),
        "POST /api/applications/{application}/webhooks/{id}:redeliver": (.loop, .admin),
        "GET /api/applications/{application}/webhooks/{id}/deliveries": (.loop, .admin),
        "GET /panel": (.memory, nil),
        "GET /panel/{asset}": (.memory, nil),
        "GET /healthz": (.memory, nil),
        "GET /readyz": (.thread, nil),
        "GET /metrics": (.memory, nil),
    ]

    static var routes: [Route] { RegistryAPI.apiRoutes + RegistryAPI.operationalRoutes(Metrics(), Operations()) }

    @Test func everyRouteIsInTheReviewedTable() {
        #expect(Set(Self.routes.map(\.key)) == Set(Self.declared.keys))
    }

    @Test(arguments: routes.map(\.key))
    func eachRouteDeclaresItsPlacementAndScope(_ key: String) throws {
        let route = try #require(Self.routes.first { $0.key == key })
        let expected = try #require(Self.declared[key])
        #expect(route.placement == expected.placement, "\(key)")
        #expect(route.permission?.scope == expected.scope, "\(key)")
        #expect(route.requiresToken == (expected.scope != nil), "\(key)")
    }

    /// A route answered from memory never waits: its operation completes without a suspension,
    /// here with no store at all.
    @Test func memoryRoutesAnswerWithoutTheStore() {
        let api = RegistryAPI(store: nil)
        for path in ["/healthz", "/metrics", "/panel", "/panel/index.html"] {
            #expect(api.answerFromMemory(HTTPRequest(method: "GET", path: path)) != nil, "\(path)")
        }
    }
}
