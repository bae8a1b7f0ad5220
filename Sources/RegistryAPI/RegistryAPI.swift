import HTTPServer
import Registry

/// The HTTP face of the registry: a plain function from request to response, so it can be
/// tested without a socket, and served by `HTTPServer` unchanged.
///
/// Check order (spec decision 8): unknown path (404) and wrong method (405) before anything
/// else, then the token (401), then each handler's own order, in which the token's scope and
/// applications are checked with the application (403 after 404).
public final class RegistryAPI: Sendable {
    private let store: Storage
    private let router: Router
    private let clock: @Sendable () -> Double
    private let logger: Logger
    /// Internal for tests of what a notification keeps.
    let caches: Caches
    private let reviews: Reviews
    public let metrics: Metrics
    /// Requests waiting for changes (`GET /api/changes?wait=`), woken by `applyChange`.
    public let waitingRoom: WaitingRoom

    /// - Parameter operationalRoutes: serve `/healthz`, `/readyz` and `/metrics` here; false
    ///   when they have an admin listener of their own (see `operationsOnly`).
    public convenience init(
        store: any SchemaStore, clock: @escaping @Sendable () -> Double = WallClock.now, logger: Logger = .disabled,
        metrics: Metrics = Metrics(), operations: Operations = Operations(), operationalRoutes: Bool = true,
        caching: CacheSettings = CacheSettings(), reviewing: ReviewSettings = ReviewSettings(),
        waitingRoom: WaitingRoom = WaitingRoom(capacity: 1000)
    ) {
        self.init(
            store: store, clock: clock, logger: logger, metrics: metrics, caching: caching, reviewing: reviewing,
            waitingRoom: waitingRoom,
            routes: Self.apiRoutes + (operationalRoutes ? Self.operationalRoutes(metrics, operations) : []))
    }

    private init(
        store: any SchemaStore, clock: @escaping @Sendable () -> Double, logger: Logger, metrics: Metrics,
        caching: CacheSettings, reviewing: ReviewSettings = ReviewSettings(), waitingRoom: WaitingRoom, routes: [Route]
    ) {
        self.waitingRoom = waitingRoom
        caches = Caches(caching, clock: clock)
        reviews = Reviews(reviewing)
        self.store = Storage(store: store, metrics: metrics, caches: caches)
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.router = Router(routes: routes.map { $0.with(permission: Self.permissions[$0.key]) })
    }

    static let apiRoutes: [Route] = [
        Route("GET", "/api/live_activity_schemas", handler: SchemaHandlers.list),
        Route("POST", "/api/live_activity_schemas", handler: SchemaHandlers.create),
        Route("POST", "/api/live_activity_schemas:validate", handler: FormHandlers.validate),
        Route("POST", "/api/live_activity_schemas:lookup", handler: LookupHandlers.lookup),
        Route("GET", "/api/live_activity_types", handler: TypeHandlers.list),
        // `latest` before `{version}`, which would otherwise take it for a malformed number.
        Route("GET", "/api/live_activity_schemas/{attributesType}/latest", triesMemoryFirst: true, handler: LatestHandlers.get),
        Route("GET", "/api/live_activity_schemas/{attributesType}/latest/form", triesMemoryFirst: true, handler: LatestHandlers.form),
        Route("POST", "/api/live_activity_schemas/{attributesType}/latest:check", handler: PushHandlers.checkLatest),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}", triesMemoryFirst: true, handler: SchemaHandlers.get),
        Route("DELETE", "/api/live_activity_schemas/{attributesType}/{version}", handler: SchemaHandlers.delete),
        Route(
            "GET", "/api/live_activity_schemas/{attributesType}/{version}/form", triesMemoryFirst: true,
            handler: FormHandlers.form),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:check", handler: PushHandlers.check),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}:diff", handler: DiffHandlers.diff),
        Route("POST", "/api/live_activities:preview", handler: PushHandlers.preview),
        Route("GET", "/api/applications", handler: ApplicationHandlers.list),
        Route("GET", "/api/token", handler: TokenHandlers.show),
        Route("GET", "/api/audit_events", handler: AuditHandlers.list),
        Route("GET", "/api/applications/{application}/compatibility_policy", handler: PolicyHandlers.get),
        Route("PUT", "/api/applications/{application}/compatibility_policy", handler: PolicyHandlers.set),
        Route("DELETE", "/api/applications/{application}/compatibility_policy", handler: PolicyHandlers.remove),
        Route("GET", "/api/live_activity_types/{attributesType}/compatibility_policy", handler: PolicyHandlers.get),
        Route("PUT", "/api/live_activity_types/{attributesType}/compatibility_policy", handler: PolicyHandlers.set),
        Route("DELETE", "/api/live_activity_types/{attributesType}/compatibility_policy", handler: PolicyHandlers.remove),
        Route("GET", "/api/changes", waitingHandler: ChangeHandlers.changes),
        Route("GET", "/panel", requiresToken: false, triesMemoryFirst: true, handler: PanelHandlers.redirect),
        Route("GET", "/panel/{asset}", requiresToken: false, triesMemoryFirst: true, handler: PanelHandlers.asset),
    ]

    /// What each route that needs a token needs from it, by `METHOD /template`: the one
    /// place where a route's scope is decided. A route missing here needs `admin` (and the
    /// route × scope test fails until it is listed).
    static let permissions: [String: Permission] = [
        "GET /api/live_activity_schemas": Permission(.read, "listing versions"),
        "POST /api/live_activity_schemas": Permission(.publish, "publishing"),
        "POST /api/live_activity_schemas:validate": Permission(.read, "validating"),
        "POST /api/live_activity_schemas:lookup": Permission(.read, "looking up a schema by content"),
        "GET /api/live_activity_types": Permission(.read, "listing types"),
        "GET /api/live_activity_schemas/{attributesType}/latest": Permission(.read, "reading the latest version"),
        "GET /api/live_activity_schemas/{attributesType}/latest/form": Permission(.read, "reading the latest form"),
        "POST /api/live_activity_schemas/{attributesType}/latest:check": Permission(.read, "checking a payload"),
        "GET /api/live_activity_schemas/{attributesType}/{version}": Permission(.read, "reading a version"),
        "DELETE /api/live_activity_schemas/{attributesType}/{version}": Permission(.admin, "deleting a version"),
        "GET /api/live_activity_schemas/{attributesType}/{version}/form": Permission(.read, "reading a form"),
        "POST /api/live_activity_schemas/{attributesType}/{version}:check": Permission(.read, "checking a payload"),
        "GET /api/live_activity_schemas/{attributesType}/{version}:diff": Permission(.read, "comparing versions"),
        "POST /api/live_activities:preview": Permission(.read, "previewing a push"),
        "GET /api/applications": Permission(.read, "listing applications"),
        "GET /api/token": Permission(.read, "reading the token"),
        "GET /api/changes": Permission(.read, "reading the change feed"),
        "GET /api/audit_events": Permission(.admin, "reading the audit trail"),
        "GET /api/applications/{application}/compatibility_policy": Permission(.read, "reading a compatibility policy"),
        "PUT /api/applications/{application}/compatibility_policy": Permission(.admin, "setting a compatibility policy"),
        "DELETE /api/applications/{application}/compatibility_policy": Permission(.admin, "removing a compatibility policy"),
        "GET /api/live_activity_types/{attributesType}/compatibility_policy": Permission(.read, "reading a compatibility policy"),
        "PUT /api/live_activity_types/{attributesType}/compatibility_policy": Permission(.admin, "setting a compatibility policy"),
        "DELETE /api/live_activity_types/{attributesType}/compatibility_policy": Permission(.admin, "removing a compatibility policy"),
    ]

    /// Fails closed: a route nobody gave a permission needs the highest scope.
    static let unlistedRoutePermission = Permission(.admin, "this unlisted route")

    /// For each route that needs a token, `METHOD /template` and the scope it needs, for the
    /// route × scope test.
    public static var routeScopes: [(route: String, scope: TokenScope)] {
        apiRoutes.filter(\.requiresToken).map { ($0.key, (permissions[$0.key] ?? unlistedRoutePermission).scope) }
    }

    /// Routes that need a token but have no entry in `permissions` (they fail closed); must be
    /// empty.
    public static var routesWithoutPermission: [String] {
        apiRoutes.filter { $0.requiresToken && permissions[$0.key] == nil }.map(\.key)
    }

    static func operationalRoutes(_ metrics: Metrics, _ operations: Operations) -> [Route] {
        [
            Route("GET", "/healthz", requiresToken: false, triesMemoryFirst: true, handler: OperationsHandlers.health),
            Route("GET", "/readyz", requiresToken: false) { call in OperationsHandlers.ready(call, operations) },
            Route("GET", "/metrics", requiresToken: false, triesMemoryFirst: true) { call in
                OperationsHandlers.metrics(call, metrics, operations)
            },
        ]
    }

    /// The route templates served, as `METHOD /template`, for the OpenAPI consistency test.
    public static var routeTable: [String] {
        (apiRoutes + operationalRoutes(Metrics(), Operations())).map(\.key)
    }

    /// A handler serving only the probes and metrics, for a separate admin listener.
    public static func operationsOnly(metrics: Metrics, operations: Operations, logger: Logger) -> RegistryAPI {
        RegistryAPI(
            store: NoStore(), clock: WallClock.now, logger: logger, metrics: metrics, caching: CacheSettings(),
            waitingRoom: WaitingRoom(capacity: 0), routes: operationalRoutes(metrics, operations))
    }

    /// Applies a `registry_changes` notification from another replica (or this one).
    /// A change-feed payload (`feed|<application id>`) wakes that application's waiting
    /// readers and leaves the caches alone.
    public func applyChange(notification payload: String) {
        if payload.utf8.starts(with: ChangeHandlers.wakeKeyPrefix.utf8) {
            waitingRoom.wake(payload)
        } else {
            caches.apply(notification: payload)
        }
    }

    /// Forgets everything cached, for when notifications may have been missed; waiting
    /// readers look again for the same reason.
    public func flushCaches() {
        caches.flush()
        waitingRoom.wakeAll()
    }

    /// Response-cache figures for metrics.
    public var cacheStatistics: (bytes: Int, entries: Int, hits: Int, misses: Int) { caches.responses.statistics }

    /// Answers one request, with a request id, a metrics sample and one log line. May block.
    /// A request that would wait for changes answers at once with what there is.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        answer(request).answeredNow
    }

    /// Answers one request like `handle`, or asks the server to park it until changes arrive
    /// (`HTTPServer`'s waiting room); the request is logged once, when finally answered.
    public func answer(_ request: HTTPRequest) -> HandlerAnswer {
        respond(request, storage: store) ?? .respond(ErrorResponse.make(.internal()))
    }

    /// Answers from memory alone (cached versions and forms, panel files, errors found before
    /// the store is needed), or nil when the request needs `handle` on a handler thread.
    /// Never blocks: for an event loop.
    public func answerFromMemory(_ request: HTTPRequest) -> HTTPResponse? {
        guard case .respond(let response) = respond(request, storage: store.withoutStore) else { return nil }
        return response
    }

    private func respond(_ request: HTTPRequest, storage: Storage) -> HandlerAnswer? {
        let started = WallClock.now()
        let requestID = RequestID.accept(request.header("x-request-id"))
        let notes = CallNotes(requestID: requestID)
        guard let (answered, route) = answer(request, storage: storage, notes: notes) else { return nil }
        return finish(answered, request: request, route: route, notes: notes, started: started)
    }

    /// Logs and counts a response; a parked request is logged when it is answered.
    private func finish(_ answer: HandlerAnswer, request: HTTPRequest, route: String, notes: CallNotes, started: Double)
        -> HandlerAnswer
    {
        switch answer {
        case .respond(let response):
            return .respond(finish(response, request: request, route: route, notes: notes, started: started))
        case .wait(let waiting):
            return .wait(
                WaitRequest(ticket: waiting.ticket, deadline: waiting.deadline) { [self] reason in
                    finish(waiting.then(reason), request: request, route: route, notes: notes, started: started)
                })
        }
    }

    private func finish(_ answered: HTTPResponse, request: HTTPRequest, route: String, notes: CallNotes, started: Double)
        -> HTTPResponse
    {
        var response = answered
        let requestID = notes.requestID
        response.headers.append((name: "X-Request-Id", value: requestID))
        response.headers.append(Self.noSniff)
        let seconds = WallClock.now() - started
        metrics.recordRequest(route: route, method: request.method, status: response.status, seconds: seconds)
        let level: Logger.Level = response.status >= 500 ? .error : .info
        if logger.logs(level) {
            var fields: JSONObject = [
                "request_id": .string(requestID), "method": .string(ClientText.shown(request.method)), "route": .string(route),
                "status": .number(String(response.status)), "duration_ms": .number(String((seconds * 1_000_000).rounded() / 1000)),
                "bytes": .number(String(response.body.count)),
            ]
            if let application = notes.application { fields["application"] = .string(application) }
            logger.log(level, "request", fields)
        }
        return response
    }

    /// Browsers must take the declared `Content-Type` as it is: a JSON body echoing client text
    /// must never be sniffed into HTML or script.
    static let noSniff = (name: "X-Content-Type-Options", value: "nosniff")

    /// Answers what the HTTP layer refused before a handler ran, in the same error shape.
    public func reject(_ rejection: HTTPRejection) -> HTTPResponse {
        let requestID = RequestID.generate()
        var response = switch rejection {
        case .bodyTooLarge(let limit):
            ErrorResponse.make(APIRefusal.bodyTooLarge(limit: limit))
        case .invalidRequestTarget(let reason):
            ErrorResponse.make(.invalidArgument(reason))
        case .shuttingDown:
            ErrorResponse.make(.unavailable("the server is shutting down; retry the request"))
        }
        response.headers.append((name: "X-Request-Id", value: requestID))
        response.headers.append(Self.noSniff)
        metrics.recordRequest(route: "rejected", method: "-", status: response.status, seconds: 0)
        logger.log(.info, "request rejected", [
            "request_id": .string(requestID), "route": "rejected", "status": .number(String(response.status)),
            "bytes": .number(String(response.body.count)),
        ])
        return response
    }

    /// nil when `storage` is memory-only and the request needs the store.
    private func answer(_ request: HTTPRequest, storage: Storage, notes: CallNotes) -> (HandlerAnswer, route: String)? {
        guard request.path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return (.respond(ErrorResponse.make(.invalidArgument("request path: must be percent-encoded ASCII without spaces"))), "unmatched")
        }
        switch router.match(method: request.method, path: request.path) {
        case .notFound:
            return (.respond(ErrorResponse.make(.notFound("no such endpoint: \(ClientText.shown(request.method)) \(ClientText.shown(request.path))"))), "unmatched")
        case .methodNotAllowed(let allow):
            return (.respond(ErrorResponse.make(APIRefusal.methodNotAllowed(method: request.method, allow: allow))), "unmatched")
        case .matched(let match):
            if storage.memoryOnly && !match.route.triesMemoryFirst { return nil }
            do {
                return (try dispatch(request, match, storage: storage, notes: notes), match.route.template.text)
            } catch where error == .needsHandlerThread {
                return nil
            } catch {
                if ErrorResponse.status(for: error.code) >= 500 {
                    logger.log(.error, "request failed", ["code": .number(String(error.code.rawValue)), "error": .string(error.message)])
                }
                return (.respond(ErrorResponse.make(error)), match.route.template.text)
            }
        }
    }

    private func dispatch(_ request: HTTPRequest, _ match: Router.Match, storage: Storage, notes: CallNotes)
        throws(RegistryError) -> HandlerAnswer
    {
        var token: TokenGrant?
        if match.route.requiresToken {
            let hash = try Authorization.tokenHash(from: request.header("authorization"))
            guard let grant = try storage.token(forTokenHash: hash, now: clock()) else {
                throw .unauthenticated("API token is invalid, revoked or expired")
            }
            token = grant
        }
        let call = Call(
            request: request, rawParameters: match.rawParameters, query: try QueryFields(raw: request.query),
            token: token, permission: match.route.permission, store: storage, clock: clock, notes: notes, metrics: metrics,
            caches: caches, reviews: reviews, waitingRoom: waitingRoom)
        if let waitingHandler = match.route.waitingHandler { return try waitingHandler(call) }
        return .respond(try match.route.handler(call))
    }
}
