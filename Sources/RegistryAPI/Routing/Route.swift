import HTTPServer
import Registry

/// One endpoint: method, path template, whether it needs an API token, and its handler.
struct Route: Sendable {
    typealias Handler = @Sendable (Call) throws(RegistryError) -> HTTPResponse

    let method: String
    let template: PathTemplate
    let requiresToken: Bool
    /// The handler often answers from memory (caches, constants), so it is first tried on the
    /// event loop and moved to a handler thread only when it needs the store.
    let triesMemoryFirst: Bool
    let handler: Handler
    /// What the token must allow, from `RegistryAPI.permissions`; set when the API is built.
    private(set) var permission = RegistryAPI.unlistedRoutePermission

    /// `METHOD /template`, the route's key in the route and permission tables.
    var key: String { "\(method) \(template.text)" }

    func with(permission: Permission?) -> Route {
        var copy = self
        copy.permission = permission ?? RegistryAPI.unlistedRoutePermission
        return copy
    }

    init(
        _ method: String, _ template: String, requiresToken: Bool = true, triesMemoryFirst: Bool = false,
        handler: @escaping Handler
    ) {
        self.method = method
        self.template = PathTemplate(template)
        self.requiresToken = requiresToken
        self.triesMemoryFirst = triesMemoryFirst
        self.handler = handler
    }
}
