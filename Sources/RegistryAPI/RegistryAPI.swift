import HTTPServer
import Registry

/// The HTTP face of the registry: a plain function from request to response, so it can be
/// tested without a socket, and served by `HTTPServer` unchanged.
///
/// Check order: unknown path (404) and wrong method (405) before anything
/// else, then the token (401), then each handler's own order, in which the token's scope and
/// applications are checked with the application (403 after 404).
public final class RegistryAPI: Sendable {
    private let router: Router
    private let clock: @Sendable () -> Double
    private let requestLog: RequestLog
    /// Internal for tests of what a committed change forgets.
    let caches: Caches
    /// What every request's call refers to.
    private let shared: Call.Shared
    public let metrics: Metrics
    /// Reads of versions, counted in memory between flushes (`flushUsage`).
    let usage: UsageLedger
    /// Requests waiting for changes (`GET /api/changes?wait=`), woken by `apply(_:)`.
    public let waitingRoom: WaitingRoom

    /// - Parameter store: nil for a handler that never reads the store (every read is a 503).
    /// - Parameter operationalRoutes: serve `/healthz`, `/readyz` and `/metrics` here; false
    ///   when they have an admin listener of their own (see `operationsOnly`).
    public convenience init(
        store: (any SchemaStore)?, clock: @escaping @Sendable () -> Double = WallClock.now, logger: Logger = .disabled,
        metrics: Metrics = Metrics(), operations: Operations = Operations(), operationalRoutes: Bool = true,
        caching: CacheSettings = CacheSettings(), reviewing: ReviewSettings = ReviewSettings(),
        waitingRoom: WaitingRoom = WaitingRoom(capacity: 250), usage: UsageSettings = UsageSettings(),
        webhookDestinations: DestinationPolicy = DestinationPolicy()
    ) {
        self.init(
            store: store, clock: clock, logger: logger, metrics: metrics, caching: caching, reviewing: reviewing,
            waitingRoom: waitingRoom, usage: usage, destinations: webhookDestinations,
            routes: Self.apiRoutes + (operationalRoutes ? Self.operationalRoutes(metrics, operations) : []))
    }

    private init(
        store: (any SchemaStore)?, clock: @escaping @Sendable () -> Double, logger: Logger, metrics: Metrics,
        caching: CacheSettings, reviewing: ReviewSettings = ReviewSettings(), waitingRoom: WaitingRoom,
        usage: UsageSettings = UsageSettings(), destinations: DestinationPolicy = DestinationPolicy(), routes: [Route]
    ) {
        self.waitingRoom = waitingRoom
        caches = Caches(caching, clock: clock)
        let storage = Storage(store: store, metrics: metrics, caches: caches)
        self.usage = UsageLedger(counter: UsageCounter(capacity: usage.maxEntries), store: storage)
        self.clock = clock
        self.metrics = metrics
        self.requestLog = RequestLog(logger: logger, metrics: metrics)
        self.router = Router(routes: routes)
        shared = Call.Shared(
            store: storage, clock: clock, metrics: metrics, caches: caches, reviews: Reviews(reviewing),
            longPages: HeavyWorkGate(
                permits: PlacementLimits.concurrentLongPages, maxWaiting: PlacementLimits.waitingLongPages,
                refusal: SchemaHandlers.pagesBusy),
            usage: self.usage, waitingRoom: waitingRoom, destinations: destinations)
    }

    static let apiRoutes: [Route] = [
        Route("GET", "/api/live_activity_schemas", needs: .read("listing versions"), SchemaHandlers.list),
        Route("POST", "/api/live_activity_schemas", needs: .publish("publishing"), SchemaHandlers.create),
        Route("POST", "/api/live_activity_schemas:validate", needs: .read("validating"), FormHandlers.validate),
        Route("POST", "/api/live_activity_schemas:lookup", needs: .read("looking up a schema by content"), LookupHandlers.lookup),
        Route("GET", "/api/live_activity_types", needs: .read("listing types"), TypeHandlers.list),
        // `latest` before `{version}`, which would otherwise take it for a malformed number.
        Route("GET", "/api/live_activity_schemas/{attributesType}/latest", needs: .read("reading the latest version"), LatestHandlers.get),
        Route("GET", "/api/live_activity_schemas/{attributesType}/latest/form", needs: .read("reading the latest form"), LatestHandlers.form),
        Route("POST", "/api/live_activity_schemas/{attributesType}/latest:check", needs: .read("checking a payload"), PushHandlers.checkLatest),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}", needs: .read("reading a version"), SchemaHandlers.get),
        Route("DELETE", "/api/live_activity_schemas/{attributesType}/{version}", needs: .admin("deleting a version"), SchemaHandlers.delete),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}/form", needs: .read("reading a form"), FormHandlers.form),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:check", needs: .read("checking a payload"), PushHandlers.check),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}:diff", needs: .read("comparing versions"), DiffHandlers.diff),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:deprecate", needs: .publish("deprecating a version"), StateHandlers.deprecate),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:disable", needs: .admin("disabling a version"), StateHandlers.disable),
        Route("POST", "/api/live_activity_schemas/{attributesType}/{version}:restore", needs: .publish("restoring a version"), StateHandlers.restore),
        Route("PUT", "/api/live_activity_types/{attributesType}/latest_pin", needs: .publish("pinning latest"), StateHandlers.pin),
        Route("DELETE", "/api/live_activity_types/{attributesType}/latest_pin", needs: .publish("unpinning latest"), StateHandlers.unpin),
        Route("GET", "/api/live_activity_schemas/{attributesType}/{version}/usage", needs: .read("reading usage"), UsageHandlers.version),
        Route("POST", "/api/live_activities:preview", needs: .read("previewing a push"), PushHandlers.preview),
        Route("GET", "/api/applications", needs: .read("listing applications"), ApplicationHandlers.list),
        .memory("GET", "/api/token", needs: .read("reading the token"), TokenHandlers.show),
        Route("GET", "/api/audit_events", needs: .admin("reading the audit trail"), AuditHandlers.list),
        Route("GET", "/api/applications/{application}/compatibility_policy", needs: .read("reading a compatibility policy"), PolicyHandlers.get),
        Route("PUT", "/api/applications/{application}/compatibility_policy", needs: .admin("setting a compatibility policy"), PolicyHandlers.set),
        Route("DELETE", "/api/applications/{application}/compatibility_policy", needs: .admin("removing a compatibility policy"), PolicyHandlers.remove),
        Route("GET", "/api/live_activity_types/{attributesType}/compatibility_policy", needs: .read("reading a compatibility policy"), PolicyHandlers.get),
        Route("PUT", "/api/live_activity_types/{attributesType}/compatibility_policy", needs: .admin("setting a compatibility policy"), PolicyHandlers.set),
        Route("DELETE", "/api/live_activity_types/{attributesType}/compatibility_policy", needs: .admin("removing a compatibility policy"), PolicyHandlers.remove),
        Route("GET", "/api/live_activity_types/{attributesType}/usage", needs: .read("reading usage"), UsageHandlers.type),
        Route("GET", "/api/changes", needs: .read("reading the change feed"), ChangeHandlers.changes),
        Route("GET", "/api/live_activity_types/{attributesType}/metadata", needs: .read("reading a type's metadata"), MetadataHandlers.getType),
        Route("PUT", "/api/live_activity_types/{attributesType}/metadata", needs: .publish("editing a type's metadata"), MetadataHandlers.setType),
        Route("PUT", "/api/live_activity_schemas/{attributesType}/{version}/metadata", needs: .publish("editing a version's metadata"), MetadataHandlers.setVersion),
        Route("GET", "/api/search", needs: .read("searching"), SearchHandlers.search),
        Route("GET", "/api/applications/{application}/webhooks", needs: .admin("listing webhooks"), WebhookHandlers.list),
        Route("POST", "/api/applications/{application}/webhooks", needs: .admin("creating a webhook"), WebhookHandlers.create),
        Route("GET", "/api/applications/{application}/webhooks/{id}", needs: .admin("reading a webhook"), WebhookHandlers.get),
        Route("PATCH", "/api/applications/{application}/webhooks/{id}", needs: .admin("changing a webhook"), WebhookHandlers.update),
        Route("DELETE", "/api/applications/{application}/webhooks/{id}", needs: .admin("deleting a webhook"), WebhookHandlers.delete),
        Route(
            "POST", "/api/applications/{application}/webhooks/{id}:rotate_secret", needs: .admin("rotating a webhook secret"),
            WebhookHandlers.rotateSecret),
        Route("POST", "/api/applications/{application}/webhooks/{id}:test", needs: .admin("sending a test event"), WebhookHandlers.test),
        Route(
            "POST", "/api/applications/{application}/webhooks/{id}:redeliver", needs: .admin("redelivering webhook events"),
            WebhookHandlers.redeliver),
        Route(
            "GET", "/api/applications/{application}/webhooks/{id}/deliveries", needs: .admin("reading webhook deliveries"),
            WebhookHandlers.deliveries),
        .memory("GET", "/panel", needs: nil, PanelHandlers.redirect),
        .memory("GET", "/panel/{asset}", needs: nil, PanelHandlers.asset),
    ]

    static func operationalRoutes(_ metrics: Metrics, _ operations: Operations) -> [Route] {
        [
            .memory("GET", "/healthz", needs: nil, OperationsHandlers.health),
            .thread("GET", "/readyz", needs: nil) { call in OperationsHandlers.ready(call, operations) },
            .memory("GET", "/metrics", needs: nil) { call in OperationsHandlers.metrics(call, metrics, operations) },
        ]
    }

    /// A handler serving only the probes and metrics, for a separate admin listener.
    public static func operationsOnly(metrics: Metrics, operations: Operations, logger: Logger) -> RegistryAPI {
        RegistryAPI(
            store: nil, clock: WallClock.now, logger: logger, metrics: metrics, caching: CacheSettings(),
            waitingRoom: WaitingRoom(capacity: 0), routes: operationalRoutes(metrics, operations))
    }

    /// A feed position as `/api/changes` spells it, for webhook bodies (their `cursor`).
    public static func feedCursorToken(_ cursor: ChangeCursor) -> String {
        ChangeCursorToken.encode(cursor)
    }

    /// Requests queued for a heavy-work permit, for metrics.
    public var heavyRequestsWaiting: Int { shared.reviews.gate.waiting }

    /// Response-cache figures for metrics.
    public var cacheStatistics: (bytes: Int, entries: Int, hits: Int, misses: Int) { caches.responses.statistics }

    /// Answers one request; the server's `Responder`. Routed, authenticated and decoded
    /// once; the route's operation then reads top to bottom, awaiting where it waits. Warm (the
    /// token, the application and the answer in memory) it never suspends, so the server sends
    /// the answer inside its callback. The request id, metrics and the log line wrap all of it
    /// (`RequestLog`), and every error becomes its response in one place (`failure`).
    ///
    /// Called without a server (tests, tools), work runs on the caller's thread and a request
    /// that would wait for changes answers at once with what there is.
    public func respond(_ request: HTTPRequest) async -> HTTPResponse {
        await requestLog.around(request) { notes in
            guard request.path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                return ("unmatched", failure(.invalidArgument("request path: must be percent-encoded ASCII without spaces"), notes: notes))
            }
            switch router.match(method: request.method, path: request.path) {
            case .notFound:
                return ("unmatched", failure(.notFound("no such endpoint: \(ClientText.shown(request.method)) \(ClientText.shown(request.path))"), notes: notes))
            case .methodNotAllowed(let allow):
                return ("unmatched", ErrorResponse.make(APIRefusal.methodNotAllowed(method: request.method, allow: allow)))
            case .matched(let match):
                let route = match.route.template.text
                do throws(RegistryError) {
                    let token = try await caller(request, match.route)
                    let call = Call(
                        request: request, rawParameters: match.rawParameters, query: try QueryFields(raw: request.query),
                        token: token, permission: match.route.permission, notes: notes, shared: shared)
                    let response = try await match.route.operation(call)
                    usage.record(notes.versionRead, by: token, status: response.status, now: clock())
                    return (route, response)
                } catch {
                    return (route, failure(error, notes: notes))
                }
            }
        }
    }

    /// The caller's token, from the lookup caches or else read on the loop; nil for a route
    /// that needs none.
    private func caller(_ request: HTTPRequest, _ route: Route) async throws(RegistryError) -> TokenGrant? {
        guard route.requiresToken else { return nil }
        let hash = try Authorization.tokenHash(from: request.header("authorization"))
        switch shared.store.cachedToken(forTokenHash: hash, now: clock()) {
        case .granted(let grant): return grant
        case .refused: throw Self.invalidToken
        case .unknown:
            guard let grant = try await shared.store.loadToken(forTokenHash: hash, now: clock, for: request) else { throw Self.invalidToken }
            return grant
        }
    }

    static let invalidToken = RegistryError.unauthenticated("API token is invalid, revoked or expired")

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
            ErrorResponse.make(APIRefusal.shuttingDown)
        }
        return requestLog.rejected(response)
    }
}
