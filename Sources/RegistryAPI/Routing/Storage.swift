import HTTPServer
import Registry

/// The store as handlers see it: every call throws only `RegistryError`. A store is expected
/// to throw `RegistryError`s already; anything else is a bug there, answered as a plain 500
/// without leaking its text.
///
/// Calls that read no cache go straight to the store, through `read` (awaited: on an event loop
/// the loop drives it), so the store's protocol is written once (`SchemaStore`); only the
/// calls that read or move a cache are wrapped here. Event loops read the lookup caches
/// directly (`cachedToken`, `cachedApplication`) and fill them through `loadToken` and
/// `loadApplication`.
struct Storage: Sendable {
    /// Nil behind an operations-only listener, which has no route that reads schemas: every
    /// call is then a 503.
    private let store: (any SchemaStore)?
    let metrics: Metrics
    let caches: Caches

    init(store: (any SchemaStore)?, metrics: Metrics, caches: Caches) {
        self.store = store
        self.metrics = metrics
        self.caches = caches
    }

    static let noStore = RegistryError.unavailable("this listener serves probes and metrics only")

    /// A call of the store for `request`, awaited: on the request's event loop it holds no
    /// thread. Its failure is counted in the metrics. A stopping server refuses new ones: its
    /// loops no longer drive them.
    func read<T: Sendable>(for request: HTTPRequest, _ read: (any SchemaStore) async throws -> T) async throws(RegistryError) -> T {
        try admit(request)
        return try await value(read)
    }

    /// Refuses work the loops must drive once a stopping server no longer drives it.
    private func admit(_ request: HTTPRequest) throws(RegistryError) {
        if let services = request.services, !services.acceptsLoopWork { throw APIRefusal.shuttingDown }
    }

    /// A call of the store, awaited, with its failure counted.
    func value<T: Sendable>(_ read: (any SchemaStore) async throws -> T) async throws(RegistryError) -> T {
        do {
            guard let store else { throw Self.noStore }
            return try await read(store)
        } catch {
            throw counted(error)
        }
    }

    /// A store failure as the service's error, counted: a store throws `RegistryError`s, and
    /// anything else is a bug there, answered as a plain 500 without leaking its text.
    private func counted(_ error: any Error) -> RegistryError {
        let registryError = error as? RegistryError ?? .internal()
        switch registryError.code {
        case .unavailable: metrics.recordDatabaseError(kind: "unavailable")
        case .internal: metrics.recordDatabaseError(kind: "internal")
        default: break
        }
        return registryError
    }

    /// What the lookup caches know of a token hash.
    enum CachedToken {
        case granted(TokenGrant)
        /// A hash that matched no live token, or a grant that has expired.
        case refused
        /// Not cached: `loadToken` must ask the store.
        case unknown
    }

    /// The short-lived lookup caches, failures included (a new token's hash has never failed,
    /// so it works at once). The expiry is checked on every use, so a cached grant never
    /// outlives its token. Never blocks.
    func cachedToken(forTokenHash hash: [UInt8], now: Double) -> CachedToken {
        let key = DigestKey(bytes: hash)
        if caches.failedTokens.cached(key) != nil { return .refused }
        guard let grant = caches.tokens.cached(key) else { return .unknown }
        return grant.isExpired(now: now) ? .refused : .granted(grant)
    }

    /// Reads a token the caches did not know from the store and remembers the answer; nil
    /// when it is unknown, revoked or expired.
    func loadToken(forTokenHash hash: [UInt8], now: @escaping @Sendable () -> Double, for request: HTTPRequest)
        async throws(RegistryError) -> TokenGrant?
    {
        let grant = try await read(for: request) { try await $0.token(forTokenHash: hash) }
        let key = DigestKey(bytes: hash)
        guard let grant else {
            caches.failedTokens.store(true, for: key)
            return nil
        }
        caches.tokens.store(grant, for: key)
        return grant.isExpired(now: now()) ? nil : grant
    }

    /// The application from the lookup cache, or nil when it must be read. Never blocks.
    func cachedApplication(code: String) -> Application? {
        caches.applications.cached(ExactName(code))
    }

    /// Reads the application from the store and remembers it.
    func loadApplication(code: String, for request: HTTPRequest) async throws(RegistryError) -> Application? {
        let application = try await read(for: request) { try await $0.application(code: code) }
        if let application { caches.applications.store(application, for: ExactName(code)) }
        return application
    }

    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata, fieldPaths: [String], comparing comparison: Comparison, once claim: IdempotencyClaim?,
        returningIdenticalNewest: Bool, for request: HTTPRequest, response: (Publication) async throws(RegistryError) -> PublishAnswer
    ) async throws(RegistryError) -> PublishOutcome {
        try admit(request)
        // Publishing moves `latest` at once on this replica; other replicas learn it from the feed.
        defer { caches.forget(CommittedChange(applicationID: application.id, kind: .published, attributesType: attributesType, version: nil)) }
        return try await value {
            try await $0.publish(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                metadata: metadata, fieldPaths: fieldPaths, comparing: comparison, once: claim,
                returningIdenticalNewest: returningIdenticalNewest,
                response: response)
        }
    }
}
