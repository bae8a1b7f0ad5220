import Registry

/// The store as handlers see it: every call throws only `RegistryError`. A store is expected
/// to throw `RegistryError`s already; anything else is a bug there, answered as a plain 500
/// without leaking its text.
///
/// Calls that read no cache go straight to the store through `run`, so the store's protocol is
/// written once (`SchemaStore`); only the calls that read or move a cache are wrapped here.
/// Only handler threads call the store (it blocks). Event loops read the lookup caches
/// directly (`cachedToken`, `cachedApplication`) and leave a miss to a handler thread.
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

    /// Runs `body` on the store, counting its failures in the metrics.
    func run<T>(_ body: (any SchemaStore) throws -> T) throws(RegistryError) -> T {
        do {
            guard let store else { throw RegistryError.unavailable("this listener serves probes and metrics only") }
            return try body(store)
        } catch let error as RegistryError {
            switch error.code {
            case .unavailable: metrics.recordDatabaseError(kind: "unavailable")
            case .internal: metrics.recordDatabaseError(kind: "internal")
            default: break
            }
            throw error
        } catch {
            metrics.recordDatabaseError(kind: "internal")
            throw .internal()
        }
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
    func loadToken(forTokenHash hash: [UInt8], now: Double) throws(RegistryError) -> TokenGrant? {
        let key = DigestKey(bytes: hash)
        guard let grant = try run({ try $0.token(forTokenHash: hash) }) else {
            caches.failedTokens.store(true, for: key)
            return nil
        }
        caches.tokens.store(grant, for: key)
        return grant.isExpired(now: now) ? nil : grant
    }

    /// The application from the lookup cache, or nil when it must be read. Never blocks.
    func cachedApplication(code: String) -> Application? {
        caches.applications.cached(ExactName(code))
    }

    /// Reads the application from the store and remembers it.
    func loadApplication(code: String) throws(RegistryError) -> Application? {
        guard let application = try run({ try $0.application(code: code) }) else { return nil }
        caches.applications.store(application, for: ExactName(code))
        return application
    }

    func application(code: String) throws(RegistryError) -> Application? {
        if let cached = cachedApplication(code: code) { return cached }
        return try loadApplication(code: code)
    }

    /// Publishing moves `latest` at once on this replica; other replicas learn it through NOTIFY.
    private func forgetNewest(_ application: Application, _ attributesType: String) {
        caches.latest.invalidate(LatestVersions.Key(applicationID: application.id, attributesType: attributesType))
    }

    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?,
        response: (Publication) throws(RegistryError) -> PublishAnswer
    ) throws(RegistryError) -> IdempotentPublish {
        defer { forgetNewest(application, attributesType) }
        return try run {
            try $0.publish(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                comparing: comparison, once: claim, response: response)
        }
    }

    func publishUnlessNewestIdentical(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?,
        response: (Publication) throws(RegistryError) -> PublishAnswer
    ) throws(RegistryError) -> FindOrPublish {
        defer { forgetNewest(application, attributesType) }
        return try run {
            try $0.publishUnlessNewestIdentical(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                comparing: comparison, once: claim, response: response)
        }
    }
}
