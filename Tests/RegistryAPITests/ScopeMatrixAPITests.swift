import Registry
import RegistryAPI
import RegistryPostgres
import Synchronization
import Testing
import TestSupport

/// Every route that needs a token × every scope, over HTTP: a scope at or above the route's
/// need gets 200, one below gets 403 code 7 naming both scopes. The cases are built from the
/// route table, so a new route fails here until it has a request and an expected scope below.
@Suite struct ScopeMatrixAPITests {
    /// One request per route, and the lowest scope that may make it. `index` tells the
    /// scopes apart for routes that change something (each deletes its own version).
    struct Case: Sendable {
        let scope: TokenScope
        let request: @Sendable (_ tenant: Tenant, _ index: Int) -> (method: String, target: String, body: JSONObject?)
    }

    static let schema = #"{"type":"object","properties":{"gate":{"type":"string"}},"attributes":{"properties":{"flight":{"type":"string"}}}}"#

    /// The webhook every webhook route but delete addresses, and the one delete removes; made
    /// by the owner before the matrix runs.
    static let webhooks = Mutex<(kept: Int64, doomed: Int64)>((0, 0))

    static func webhook(_ t: Tenant, _ suffix: String = "", doomed: Bool = false) -> String {
        let id = webhooks.withLock { doomed ? $0.doomed : $0.kept }
        return "/api/applications/\(t.code)/webhooks/\(id)\(suffix)"
    }

    static let cases: [String: Case] = [
        "GET /api/applications/{application}/webhooks": Case(scope: .admin) { t, _ in ("GET", "/api/applications/\(t.code)/webhooks", nil) },
        "POST /api/applications/{application}/webhooks": Case(scope: .admin) { t, _ in
            ("POST", "/api/applications/\(t.code)/webhooks", ["url": "https://93.184.216.34/matrix", "events": ["published"]])
        },
        "GET /api/applications/{application}/webhooks/{id}": Case(scope: .admin) { t, _ in ("GET", webhook(t), nil) },
        "PATCH /api/applications/{application}/webhooks/{id}": Case(scope: .admin) { t, _ in ("PATCH", webhook(t), ["description": "matrix"]) },
        "DELETE /api/applications/{application}/webhooks/{id}": Case(scope: .admin) { t, _ in ("DELETE", webhook(t, doomed: true), nil) },
        "POST /api/applications/{application}/webhooks/{id}:rotate_secret": Case(scope: .admin) { t, _ in
            ("POST", webhook(t, ":rotate_secret"), [:])
        },
        "POST /api/applications/{application}/webhooks/{id}:test": Case(scope: .admin) { t, _ in ("POST", webhook(t, ":test"), [:]) },
        "POST /api/applications/{application}/webhooks/{id}:redeliver": Case(scope: .admin) { t, _ in
            ("POST", webhook(t, ":redeliver"), ["since": .string(RegistryAPI.feedCursorToken(.start))])
        },
        "GET /api/applications/{application}/webhooks/{id}/deliveries": Case(scope: .admin) { t, _ in ("GET", webhook(t, "/deliveries"), nil) },
        "GET /api/live_activity_schemas": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas?application=\(t.code)", nil)
        },
        "POST /api/live_activity_schemas": Case(scope: .publish) { t, _ in
            ("POST", "/api/live_activity_schemas", ["application": .string(t.code), "attributesType": "Matrix", "jsonSchema": .string(schema)])
        },
        "POST /api/live_activity_schemas:validate": Case(scope: .read) { t, _ in
            ("POST", "/api/live_activity_schemas:validate", ["application": .string(t.code), "attributesType": "Matrix", "jsonSchema": .string(schema)])
        },
        "POST /api/live_activity_schemas:lookup": Case(scope: .read) { t, _ in
            ("POST", "/api/live_activity_schemas:lookup", ["application": .string(t.code), "attributesType": "Matrix", "jsonSchema": .string(schema)])
        },
        "GET /api/live_activity_types": Case(scope: .read) { t, _ in ("GET", "/api/live_activity_types?application=\(t.code)", nil) },
        "GET /api/live_activity_schemas/{attributesType}/latest": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas/Matrix/latest?application=\(t.code)", nil)
        },
        "GET /api/live_activity_schemas/{attributesType}/latest/form": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas/Matrix/latest/form?application=\(t.code)", nil)
        },
        "POST /api/live_activity_schemas/{attributesType}/latest:check": Case(scope: .read) { t, _ in
            ("POST", "/api/live_activity_schemas/Matrix/latest:check", ["application": .string(t.code), "event": "update", "content_state": [:]])
        },
        "GET /api/live_activity_schemas/{attributesType}/{version}:diff": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas/Matrix/1:diff?against=1&application=\(t.code)", nil)
        },
        "GET /api/live_activity_schemas/{attributesType}/{version}": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas/Matrix/1?application=\(t.code)", nil)
        },
        "DELETE /api/live_activity_schemas/{attributesType}/{version}": Case(scope: .admin) { t, index in
            ("DELETE", "/api/live_activity_schemas/Doomed/\(index + 1)?application=\(t.code)", nil)
        },
        "GET /api/live_activity_schemas/{attributesType}/{version}/form": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas/Matrix/1/form?application=\(t.code)", nil)
        },
        "POST /api/live_activity_schemas/{attributesType}/{version}:check": Case(scope: .read) { t, _ in
            ("POST", "/api/live_activity_schemas/Matrix/1:check", ["application": .string(t.code), "event": "update", "content_state": [:]])
        },
        "POST /api/live_activity_schemas/{attributesType}/{version}:deprecate": Case(scope: .publish) { t, _ in
            ("POST", "/api/live_activity_schemas/Matrix/1:deprecate?application=\(t.code)", ["message": "use a newer version"])
        },
        "POST /api/live_activity_schemas/{attributesType}/{version}:disable": Case(scope: .admin) { t, index in
            ("POST", "/api/live_activity_schemas/Withdrawn/\(index + 1):disable?application=\(t.code)", ["reason": "withdrawn"])
        },
        "POST /api/live_activity_schemas/{attributesType}/{version}:restore": Case(scope: .publish) { t, _ in
            ("POST", "/api/live_activity_schemas/Matrix/1:restore?application=\(t.code)", [:])
        },
        // The table lists PUT before DELETE, so each scope that may pin removes its own pin.
        "PUT /api/live_activity_types/{attributesType}/latest_pin": Case(scope: .publish) { t, _ in
            ("PUT", "/api/live_activity_types/Matrix/latest_pin?application=\(t.code)", ["version": 1])
        },
        "DELETE /api/live_activity_types/{attributesType}/latest_pin": Case(scope: .publish) { t, _ in
            ("DELETE", "/api/live_activity_types/Matrix/latest_pin?application=\(t.code)", nil)
        },
        "POST /api/live_activities:preview": Case(scope: .read) { t, _ in
            ("POST", "/api/live_activities:preview", ["application": .string(t.code), "bundle_id": "com.example.flights"])
        },
        "GET /api/live_activity_schemas/{attributesType}/{version}/usage": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_schemas/Matrix/1/usage?application=\(t.code)", nil)
        },
        "GET /api/live_activity_types/{attributesType}/usage": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_types/Matrix/usage?application=\(t.code)", nil)
        },
        "GET /api/applications": Case(scope: .read) { _, _ in ("GET", "/api/applications", nil) },
        "GET /api/token": Case(scope: .read) { _, _ in ("GET", "/api/token", nil) },
        "GET /api/changes": Case(scope: .read) { t, _ in ("GET", "/api/changes?application=\(t.code)", nil) },
        "GET /api/audit_events": Case(scope: .admin) { t, _ in ("GET", "/api/audit_events?application=\(t.code)", nil) },
        "GET /api/applications/{application}/compatibility_policy": Case(scope: .read) { t, _ in
            ("GET", "/api/applications/\(t.code)/compatibility_policy", nil)
        },
        "PUT /api/applications/{application}/compatibility_policy": Case(scope: .admin) { t, _ in
            ("PUT", "/api/applications/\(t.code)/compatibility_policy", ["mode": "backward_transitive", "enforce": "warn"])
        },
        "DELETE /api/applications/{application}/compatibility_policy": Case(scope: .admin) { t, _ in
            ("DELETE", "/api/applications/\(t.code)/compatibility_policy", nil)
        },
        "GET /api/live_activity_types/{attributesType}/compatibility_policy": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_types/Matrix/compatibility_policy?application=\(t.code)", nil)
        },
        "PUT /api/live_activity_types/{attributesType}/compatibility_policy": Case(scope: .admin) { t, _ in
            ("PUT", "/api/live_activity_types/Matrix/compatibility_policy?application=\(t.code)", ["mode": "none", "enforce": "warn"])
        },
        "DELETE /api/live_activity_types/{attributesType}/compatibility_policy": Case(scope: .admin) { t, _ in
            ("DELETE", "/api/live_activity_types/Matrix/compatibility_policy?application=\(t.code)", nil)
        },
        "GET /api/live_activity_types/{attributesType}/metadata": Case(scope: .read) { t, _ in
            ("GET", "/api/live_activity_types/Matrix/metadata?application=\(t.code)", nil)
        },
        "PUT /api/live_activity_types/{attributesType}/metadata": Case(scope: .publish) { t, index in
            ("PUT", "/api/live_activity_types/Matrix/metadata?application=\(t.code)", ["owner": .string("team \(index)")])
        },
        "PUT /api/live_activity_schemas/{attributesType}/{version}/metadata": Case(scope: .publish) { t, index in
            ("PUT", "/api/live_activity_schemas/Matrix/1/metadata?application=\(t.code)", ["labels": ["round": .string("\(index)")]])
        },
        "GET /api/search": Case(scope: .read) { t, _ in ("GET", "/api/search?application=\(t.code)&q=Matrix", nil) },
    ]

    @Test func everyRouteThatNeedsATokenHasAPermissionAndACase() {
        let routes = RegistryAPI.routeScopes.map(\.route)
        #expect(!routes.isEmpty)
        for route in routes { #expect(Self.cases[route] != nil, "list \(route) in ScopeMatrixAPITests.cases") }
        for (route, scope) in RegistryAPI.routeScopes {
            #expect(Self.cases[route]?.scope == scope, "\(route) declares it needs \(scope.rawValue)")
        }
    }

    @Test func eachScopeReachesExactlyTheRoutesAtOrBelowIt() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let admin = AdminStore(pool: registry.pool)
        #expect(try owner.publish("Matrix", Self.schema).status == 200)
        for _ in TokenScope.allCases {
            #expect(try owner.publish("Doomed", Self.schema).status == 200)
            #expect(try owner.publish("Withdrawn", Self.schema).status == 200)
        }
        func makeWebhook() throws -> Int64 {
            let body = #"{"url": "https://93.184.216.34/matrix", "events": ["published"]}"#
            let response = try owner.request("POST", "/api/applications/\(owner.code)/webhooks", body: body)
            #expect(response.status == 200, "\(response.bodyText)")
            return Int64(try #require(try response.json()["webhook"]?["id"]?.integerLexemeValue))
        }
        let ids = (kept: try makeWebhook(), doomed: try makeWebhook())
        Self.webhooks.withLock { $0 = ids }

        var checked = 0
        for (index, scope) in TokenScope.allCases.enumerated() {
            let tenant = try admin.tenant(like: owner, terms: TokenTerms(scope: scope, name: "matrix \(scope.rawValue)"))
            for (route, needed) in RegistryAPI.routeScopes {
                guard let testCase = Self.cases[route] else { continue }
                let (method, target, body) = testCase.request(tenant, index)
                let response = try tenant.request(method, target, body: body.map { JSONWriter.string(.object($0)) })
                if scope >= needed {
                    #expect(response.status == 200, "\(scope.rawValue) on \(route): \(response.bodyText)")
                } else {
                    try expectError(response, status: 403, code: 7, mentioning: "this token has scope \(scope.rawValue);")
                    #expect(response.bodyText.contains("needs \(needed.rawValue)"), "\(scope.rawValue) on \(route): \(response.bodyText)")
                }
                checked += 1
            }
        }
        #expect(checked == RegistryAPI.routeScopes.count * TokenScope.allCases.count && checked >= 60, "checked \(checked)")
    }

    @Test func aRefusalNamesTheActivityAndBothScopes() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let reader = try AdminStore(pool: registry.pool).tenant(like: owner, terms: TokenTerms(scope: .read))
        let response = try reader.publish("Named", Self.schema)
        try expectError(response, status: 403, code: 7, mentioning: "this token has scope read; publishing needs publish")
    }

    @Test func scopeIsCheckedAfterAnUnknownApplicationAndBeforeSchemaRules() throws {
        let registry = try TestRegistry.shared()
        let owner = try registry.makeTenant()
        let reader = try AdminStore(pool: registry.pool).tenant(like: owner, terms: TokenTerms(scope: .read))
        try expectError(try reader.on(application: "NOPE1-NOPE2").publish("Order", Self.schema), status: 404, code: 5)
        try expectError(try reader.publish("Order", #"{"type":"string"}"#), status: 403, code: 7)
        try expectError(try reader.publish("no/slash", Self.schema), status: 400, code: 3)
    }
}
