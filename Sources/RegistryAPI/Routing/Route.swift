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

    /// For routes that may wait for an event (long polling): answers or parks the request.
    /// Such a route's `handler` answers at once instead, for callers that cannot park.
    let waitingHandler: WaitingHandler?

    typealias WaitingHandler = @Sendable (Call) throws(RegistryError) -> HandlerAnswer

    init(_ method: String, _ template: String, waitingHandler: @escaping WaitingHandler) {
        self.method = method
        self.template = PathTemplate(template)
        self.requiresToken = true
        self.triesMemoryFirst = false
        self.waitingHandler = waitingHandler
        self.handler = { call throws(RegistryError) in try waitingHandler(call).answeredNow }
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
        self.waitingHandler = nil
    }
}

extension HandlerAnswer {
    /// The response, after waking a parked request with `.answerNow` as often as needed.
    var answeredNow: HTTPResponse {
        var answer = self
        while case .wait(let waiting) = answer { answer = waiting.then(.answerNow) }
        guard case .respond(let response) = answer else { fatalError("unreachable") }
        return response
    }
}
