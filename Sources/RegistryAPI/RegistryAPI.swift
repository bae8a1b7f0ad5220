import HTTPServer
import Registry

/// The HTTP face of the registry: a plain function from request to response, so it can be
/// tested without a socket, and served by `HTTPServer` unchanged.
///
/// Check order (spec decision 8): unknown path (404) and wrong method (405) before anything
/// else, then the token (401), then each handler's own order.
public final class RegistryAPI: Sendable {
    private let store: Storage
    private let router: Router
    private let clock: @Sendable () -> Double

    public init(store: any SchemaStore, clock: @escaping @Sendable () -> Double = WallClock.now) {
        self.store = Storage(store: store)
        self.router = Router(routes: Self.routes)
        self.clock = clock
    }

    static let routes: [Route] = [
        Route("GET", "/api/live_activity_schemas", handler: SchemaHandlers.list),
        Route("POST", "/api/live_activity_schemas", handler: SchemaHandlers.create),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}", handler: SchemaHandlers.get),
        Route("DELETE", "/api/live_activity_schemas/{attributesType}/{version}", handler: SchemaHandlers.delete),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:check", handler: PushHandlers.check),
        Route("POST", "/api/live_activities:preview", handler: PushHandlers.preview),
        Route("GET", "/api/applications", handler: ApplicationHandlers.list),
    ]

    /// The route templates served, as `METHOD /template`, for the OpenAPI consistency test.
    public static var routeTable: [String] { routes.map { "\($0.method) \($0.template.text)" } }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard request.path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return ErrorResponse.make(.invalidArgument("request path: must be percent-encoded ASCII without spaces"))
        }
        switch router.match(method: request.method, path: request.path) {
        case .notFound:
            return ErrorResponse.make(.notFound("no such endpoint: \(request.method) \(request.path)"))
        case .methodNotAllowed(let allow):
            return ErrorResponse.make(.methodNotAllowed("method \(request.method) is not allowed here", allow: allow))
        case .matched(let match):
            do {
                return try dispatch(request, match)
            } catch {
                return ErrorResponse.make(error)
            }
        }
    }

    /// Answers what the HTTP layer refused before a handler ran, in the same error shape.
    public func reject(_ rejection: HTTPRejection) -> HTTPResponse {
        switch rejection {
        case .bodyTooLarge(let limit):
            ErrorResponse.make(.payloadTooLarge("request body is larger than \(limit) bytes"))
        case .invalidRequestTarget(let reason):
            ErrorResponse.make(.invalidArgument(reason))
        }
    }

    private func dispatch(_ request: HTTPRequest, _ match: Router.Match) throws(RegistryError) -> HTTPResponse {
        var accountID: Int64?
        if match.route.requiresToken {
            let hash = try Authorization.tokenHash(from: request.header("authorization"))
            guard let id = try store.accountID(forTokenHash: hash) else {
                throw .unauthenticated("API token is invalid or revoked")
            }
            accountID = id
        }
        let call = Call(
            request: request, rawParameters: match.rawParameters, query: try QueryFields(raw: request.query),
            accountID: accountID, store: store, clock: clock)
        return try match.route.handler(call)
    }
}
