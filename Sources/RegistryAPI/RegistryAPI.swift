import HTTPServer
import Registry

/// The HTTP face of the registry: a plain function from request to response, so it can be
/// tested without a socket, and served by `HTTPServer` unchanged.
///
/// Check order: unknown path (404) and wrong method (405) before anything
/// else, then the token (401), then each handler's own order, in which the token's scope and
/// applications are checked with the application (403 after 404).
public final class RegistryAPI: Sendable {
    private let store: Storage
    private let router: Router
    private let clock: @Sendable () -> Double
    private let logger: Logger
    private let requestLog: RequestLog
    /// Internal for tests of what a committed change forgets.
    let caches: Caches
    private let reviews: Reviews
    private let longPages = HeavyWorkGate(
        permits: SchemaHandlers.concurrentLongPages, maxWaiting: SchemaHandlers.waitingLongPages, refusal: SchemaHandlers.pagesBusy)
    public let metrics: Metrics
    /// Requests waiting for changes (`GET /api/changes?wait=`), woken by `apply(_:)`.
    public let waitingRoom: WaitingRoom

    /// - Parameter store: nil for a handler that never reads the store (every read is a 503).
    /// - Parameter operationalRoutes: serve `/healthz`, `/readyz` and `/metrics` here; false
    ///   when they have an admin listener of their own (see `operationsOnly`).
    public convenience init(
        store: (any SchemaStore)?, clock: @escaping @Sendable () -> Double = WallClock.now, logger: Logger = .disabled,
        metrics: Metrics = Metrics(), operations: Operations = Operations(), operationalRoutes: Bool = true,
        caching: CacheSettings = CacheSettings(), reviewing: ReviewSettings = ReviewSettings(),
        waitingRoom: WaitingRoom = WaitingRoom(capacity: 250)
    ) {
        self.init(
            store: store, clock: clock, logger: logger, metrics: metrics, caching: caching, reviewing: reviewing,
            waitingRoom: waitingRoom,
            routes: Self.apiRoutes + (operationalRoutes ? Self.operationalRoutes(metrics, operations) : []))
    }

    private init(
        store: (any SchemaStore)?, clock: @escaping @Sendable () -> Double, logger: Logger, metrics: Metrics,
        caching: CacheSettings, reviewing: ReviewSettings = ReviewSettings(), waitingRoom: WaitingRoom, routes: [Route]
    ) {
        self.waitingRoom = waitingRoom
        caches = Caches(caching, clock: clock)
        reviews = Reviews(reviewing)
        self.store = Storage(store: store, metrics: metrics, caches: caches)
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.requestLog = RequestLog(logger: logger, metrics: metrics)
        self.router = Router(routes: routes.map { $0.with(permission: Self.permissions[$0.key]) })
    }

    static let apiRoutes: [Route] = [
        Route("GET", "/api/live_activity_schemas", memoryFirst: SchemaHandlers.list),
        Route("POST", "/api/live_activity_schemas", memoryFirst: SchemaHandlers.create),
        Route("POST", "/api/live_activity_schemas:validate", memoryFirst: FormHandlers.validate),
        Route("POST", "/api/live_activity_schemas:lookup", memoryFirst: LookupHandlers.lookup),
        Route("GET", "/api/live_activity_types", memoryFirst: TypeHandlers.list),
        // `latest` before `{version}`, which would otherwise take it for a malformed number.
        Route("GET", "/api/live_activity_schemas/{attributesType}/latest", memoryFirst: LatestHandlers.get),
        Route("GET", "/api/live_activity_schemas/{attributesType}/latest/form", memoryFirst: LatestHandlers.form),
        Route("POST", "/api/live_activity_schemas/{attributesType}/latest:check", memoryFirst: PushHandlers.checkLatest),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}", memoryFirst: SchemaHandlers.get),
        Route("DELETE", "/api/live_activity_schemas/{attributesType}/{version}", memoryFirst: SchemaHandlers.delete),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}/form", memoryFirst: FormHandlers.form),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:check", memoryFirst: PushHandlers.check),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}:diff", memoryFirst: DiffHandlers.diff),
        Route("POST", "/api/live_activities:preview", memoryFirst: PushHandlers.preview),
        Route("GET", "/api/applications", memoryFirst: ApplicationHandlers.list),
        Route("GET", "/api/token", memory: TokenHandlers.show),
        Route("GET", "/api/audit_events", memoryFirst: AuditHandlers.list),
        Route("GET", "/api/applications/{application}/compatibility_policy", memoryFirst: PolicyHandlers.get),
        Route("PUT", "/api/applications/{application}/compatibility_policy", memoryFirst: PolicyHandlers.set),
        Route("DELETE", "/api/applications/{application}/compatibility_policy", memoryFirst: PolicyHandlers.remove),
        Route("GET", "/api/live_activity_types/{attributesType}/compatibility_policy", memoryFirst: PolicyHandlers.get),
        Route("PUT", "/api/live_activity_types/{attributesType}/compatibility_policy", memoryFirst: PolicyHandlers.set),
        Route("DELETE", "/api/live_activity_types/{attributesType}/compatibility_policy", memoryFirst: PolicyHandlers.remove),
        Route("GET", "/api/changes", memoryFirst: ChangeHandlers.changes),
        Route("GET", "/panel", requiresToken: false, memory: PanelHandlers.redirect),
        Route("GET", "/panel/{asset}", requiresToken: false, memory: PanelHandlers.asset),
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

    static func operationalRoutes(_ metrics: Metrics, _ operations: Operations) -> [Route] {
        [
            Route("GET", "/healthz", requiresToken: false, memory: OperationsHandlers.health),
            Route("GET", "/readyz", requiresToken: false, handler: { call in OperationsHandlers.ready(call, operations) }),
            Route("GET", "/metrics", requiresToken: false, memory: { call in
                OperationsHandlers.metrics(call, metrics, operations)
            }),
        ]
    }

    /// A handler serving only the probes and metrics, for a separate admin listener.
    public static func operationsOnly(metrics: Metrics, operations: Operations, logger: Logger) -> RegistryAPI {
        RegistryAPI(
            store: nil, clock: WallClock.now, logger: logger, metrics: metrics, caching: CacheSettings(),
            waitingRoom: WaitingRoom(capacity: 0), routes: operationalRoutes(metrics, operations))
    }

    /// Requests queued for a heavy-work permit, for metrics.
    public var heavyRequestsWaiting: Int { reviews.gate.waiting }

    /// Response-cache figures for metrics.
    public var cacheStatistics: (bytes: Int, entries: Int, hits: Int, misses: Int) { caches.responses.statistics }

    /// Answers one request, doing any work it needs right here: may block. For callers without
    /// an event loop and handler threads (tests, tools), where every read completes at once.
    /// A request that would wait for changes answers at once with what there is.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        decide(request).answeredNow
    }

    /// Decides a request once, on an event loop; never blocks. The request is parsed, routed,
    /// authenticated from the lookup caches and decoded into a call here, once; then it is
    /// answered from memory (or with an error), or a read starts on the loop (the token, the
    /// application, the version) and the request goes on from its value when it completes,
    /// or what is left becomes work for a handler thread that goes on from there. The request
    /// id, metrics and the log line wrap all of it (`RequestLog`).
    public func decide(_ request: HTTPRequest) -> Decision {
        requestLog.around(request) { notes in
            guard request.path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                return ("unmatched", refuse(.invalidArgument("request path: must be percent-encoded ASCII without spaces")))
            }
            switch router.match(method: request.method, path: request.path) {
            case .notFound:
                return ("unmatched", refuse(.notFound("no such endpoint: \(ClientText.shown(request.method)) \(ClientText.shown(request.path))")))
            case .methodNotAllowed(let allow):
                return ("unmatched", .respond(ErrorResponse.make(APIRefusal.methodNotAllowed(method: request.method, allow: allow))))
            case .matched(let match):
                let route = match.route.template.text
                do throws(RegistryError) {
                    return (route, decision(try authenticate(request, match, notes: notes), notes: notes))
                } catch {
                    return (route, .respond(failure(error, notes: notes)))
                }
            }
        }
    }

    /// The caller's token from the lookup caches; one they do not hold is read first (without
    /// a thread waiting), and the request then goes on with the same route and request.
    private func authenticate(_ request: HTTPRequest, _ match: Router.Match, notes: CallNotes) throws(RegistryError) -> Step {
        guard match.route.requiresToken else { return try operate(request, match, token: nil, notes: notes) }
        let hash = try Authorization.tokenHash(from: request.header("authorization"))
        let cached: TokenGrant?
        switch store.cachedToken(forTokenHash: hash, now: clock()) {
        case .granted(let grant): cached = grant
        case .refused: throw Self.invalidToken
        case .unknown: cached = nil
        }
        return try Step.after(
            cached,
            load: { [store, clock] done in
                store.loadToken(forTokenHash: hash, now: clock) { loaded in
                    done(loaded.flatMap { grant in grant.map { .success($0) } ?? .failure(Self.invalidToken) })
                }
            },
            then: { [self] grant throws(RegistryError) in try operate(request, match, token: grant, notes: notes) })
    }

    static let invalidToken = RegistryError.unauthenticated("API token is invalid, revoked or expired")

    /// Decodes the query into a call and runs the route's operation on it.
    private func operate(_ request: HTTPRequest, _ match: Router.Match, token: TokenGrant?, notes: CallNotes)
        throws(RegistryError) -> Step
    {
        let call = Call(
            request: request, rawParameters: match.rawParameters, query: try QueryFields(raw: request.query),
            token: token, permission: match.route.permission, store: store, clock: clock, notes: notes, metrics: metrics,
            caches: caches, reviews: reviews, longPages: longPages, waitingRoom: waitingRoom)
        return try match.route.operation(call)
    }

    private func refuse(_ error: RegistryError) -> Decision {
        .respond(ErrorResponse.make(error))
    }

    /// What the server does with a route's step: answer, start the read (and decide again from
    /// what follows it), hand the work to a handler thread, or park the request (and decide
    /// again from what follows its wake).
    private func decision(_ step: Step, notes: CallNotes) -> Decision {
        switch step {
        case .respond(let response):
            return .respond(response)
        case .work(let work):
            return .work { [self] in following(work, notes: notes) }
        case .later(let start):
            return .later { [self] completion in
                start { [self] next in
                    switch next {
                    case .success(let step): completion(decision(step, notes: notes))
                    case .failure(let error): completion(.respond(failure(error, notes: notes)))
                    }
                }
            }
        case .wait(let ticket, let deadline, let then):
            return .wait(
                WaitRequest(ticket: ticket, deadline: deadline) { [self] reason in
                    following({ () throws(RegistryError) in try then(reason) }, notes: notes)
                })
        }
    }

    /// What follows the work a request was left with (on a handler thread) or its wake.
    private func following(_ next: () throws(RegistryError) -> Step, notes: CallNotes) -> Decision {
        do throws(RegistryError) {
            return decision(try next(), notes: notes)
        } catch {
            return .respond(failure(error, notes: notes))
        }
    }

    /// The response to a thrown error. The error is noted for the request's log line, which
    /// logs a server-side one once, with the request id, the route and its cause (`RequestLog`);
    /// the response shows only its code and message.
    private func failure(_ error: RegistryError, notes: CallNotes) -> HTTPResponse {
        notes.failure = error
        return ErrorResponse.make(error)
    }

    /// Answers what the HTTP layer refused before a handler ran, in the same error shape.
    public func reject(_ rejection: HTTPRejection) -> HTTPResponse {
        let response = switch rejection {
        case .bodyTooLarge(let limit):
            ErrorResponse.make(APIRefusal.bodyTooLarge(limit: limit))
        case .invalidRequestTarget(let reason):
            ErrorResponse.make(.invalidArgument(reason))
        case .shuttingDown:
            ErrorResponse.make(.unavailable("the server is shutting down; retry the request"))
        }
        return requestLog.rejected(response)
    }
}
