@testable import RegistryAPI
import Registry

/// Views of the route table that only the route × scope and OpenAPI tests read; they live
/// here so the product carries no accessors kept for tests.
extension RegistryAPI {
    /// For each route that needs a token, `METHOD /template` and the scope it needs.
    static var routeScopes: [(route: String, scope: TokenScope)] {
        apiRoutes.filter(\.requiresToken).map { ($0.key, (permissions[$0.key] ?? unlistedRoutePermission).scope) }
    }

    /// Routes that need a token but have no entry in `permissions` (they fail closed); must be
    /// empty.
    static var routesWithoutPermission: [String] {
        apiRoutes.filter { $0.requiresToken && permissions[$0.key] == nil }.map(\.key)
    }

    /// The route templates served, as `METHOD /template`.
    static var routeTable: [String] {
        (apiRoutes + operationalRoutes(Metrics(), Operations())).map(\.key)
    }
}
