import HTTPServer
import Registry

/// One endpoint: method, path template, whether it needs an API token, and its operation.
struct Route: Sendable {
    typealias Handler = @Sendable (Call) throws(RegistryError) -> HTTPResponse
    /// Runs on the event loop once the request is routed, authenticated and decoded; it never
    /// blocks: it answers from memory or returns the work that needs the store.
    typealias Operation = @Sendable (Call) throws(RegistryError) -> Step

    let method: String
    let template: PathTemplate
    let requiresToken: Bool
    let operation: Operation
    /// What the token must allow, from `RegistryAPI.permissions`; set when the API is built.
    private(set) var permission = RegistryAPI.unlistedRoutePermission

    /// `METHOD /template`, the route's key in the route and permission tables.
    var key: String { "\(method) \(template.text)" }

    func with(permission: Permission?) -> Route {
        var copy = self
        copy.permission = permission ?? RegistryAPI.unlistedRoutePermission
        return copy
    }

    /// A route whose handler needs the store: it runs on a handler thread.
    init(_ method: String, _ template: String, requiresToken: Bool = true, handler: @escaping Handler) {
        self.init(method, template, requiresToken: requiresToken, memoryFirst: { call throws(RegistryError) in
            .work { () throws(RegistryError) in .respond(try handler(call)) }
        })
    }

    /// A route answered from memory alone (constants, embedded files, metrics): on the event loop.
    init(_ method: String, _ template: String, requiresToken: Bool = true, memory handler: @escaping Handler) {
        self.init(method, template, requiresToken: requiresToken, memoryFirst: { call throws(RegistryError) in
            .respond(try handler(call))
        })
    }

    /// A route that answers from memory when what it needs is there, and says itself which
    /// part needs the store (`Step.after`).
    init(_ method: String, _ template: String, requiresToken: Bool = true, memoryFirst operation: @escaping Operation) {
        self.method = method
        self.template = PathTemplate(template)
        self.requiresToken = requiresToken
        self.operation = operation
    }
}
