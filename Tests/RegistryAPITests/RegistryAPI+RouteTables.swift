@testable import RegistryAPI
import Registry

/// Views of the route table that only the route × scope and OpenAPI tests read; they live
/// here so the product carries no accessors kept for tests.
extension RegistryAPI {
    /// For each route that needs a token, `METHOD /template` and the scope it needs.
    static var routeScopes: [(route: String, scope: TokenScope)] {
        apiRoutes.compactMap { route in route.permission.map { (route.key, $0.scope) } }
    }

    /// The route templates served, as `METHOD /template`.
    static var routeTable: [String] {
        (apiRoutes + operationalRoutes(Metrics(), Operations())).map(\.key)
    }
}
