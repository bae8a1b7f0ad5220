import Registry

/// The store as handlers see it: every call throws only `RegistryError`. A store is expected
/// to throw `RegistryError`s already; anything else is a bug there, answered as a plain 500
/// without leaking its text.
///
/// Only handler threads call the store (it blocks). Event loops read the lookup caches
/// directly (`cachedToken`, `cachedApplication`) and leave a miss to a handler thread.
struct Storage: Sendable {
    let store: any SchemaStore
    let metrics: Metrics
    let caches: Caches

    private func run<T>(_ body: () throws -> T) throws(RegistryError) -> T {
        do {
            return try body()
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
        guard let grant = try run({ try store.token(forTokenHash: hash) }) else {
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
        guard let application = try run({ try store.application(code: code) }) else { return nil }
        caches.applications.store(application, for: ExactName(code))
        return application
    }

    func application(code: String) throws(RegistryError) -> Application? {
        if let cached = cachedApplication(code: code) { return cached }
        return try loadApplication(code: code)
    }

    func applications(accountID: Int64) throws(RegistryError) -> [Application] {
        try run { try store.applications(accountID: accountID) }
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
            try store.publish(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                comparing: comparison, once: claim, response: response)
        }
    }

    func storedResponse(accountID: Int64, idempotencyKey: String) throws(RegistryError) -> StoredResponse? {
        try run { try store.storedResponse(accountID: accountID, idempotencyKey: idempotencyKey) }
    }

    func schema(application: Application, attributesType: String, version: Int32) throws(RegistryError) -> SchemaVersion? {
        try run { try store.schema(application: application, attributesType: attributesType, version: version) }
    }

    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?)
        throws(RegistryError) -> [SchemaVersion]
    {
        try run { try store.list(application: application, attributesType: attributesType, after: cursor, limit: limit) }
    }

    func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        throws(RegistryError) -> ComparisonBasis
    {
        try run { try store.comparisonBasis(application: application, attributesType: attributesType, below: version, comparing: comparison) }
    }

    func compatibilityPolicy(application: Application, attributesType: String?) throws(RegistryError) -> EffectivePolicy {
        try run { try store.compatibilityPolicy(application: application, attributesType: attributesType) }
    }

    func setCompatibilityPolicy(application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor)
        throws(RegistryError) -> EffectivePolicy
    {
        try run { try store.setCompatibilityPolicy(application: application, attributesType: attributesType, to: policy, by: actor) }
    }

    func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) throws(RegistryError) -> Bool {
        try run { try store.removeCompatibilityPolicy(application: application, attributesType: attributesType, by: actor) }
    }

    func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) throws(RegistryError)
        -> Bool
    {
        try run { try store.delete(application: application, attributesType: attributesType, version: version, by: actor) }
    }

    func auditEvents(_ query: AuditQuery) throws(RegistryError) -> [AuditEvent] {
        try run { try store.auditEvents(query) }
    }

    func types(application: Application, filter: TypeFilter, limit: Int?) throws(RegistryError) -> [TypeSummary] {
        try run { try store.types(application: application, filter: filter, limit: limit) }
    }

    func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) throws(RegistryError)
        -> SchemaVersion?
    {
        try run { try store.newestIdentical(application: application, attributesType: attributesType, contentHash: contentHash) }
    }

    func publishUnlessNewestIdentical(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?,
        response: (Publication) throws(RegistryError) -> PublishAnswer
    ) throws(RegistryError) -> FindOrPublish {
        defer { forgetNewest(application, attributesType) }
        return try run {
            try store.publishUnlessNewestIdentical(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                comparing: comparison, once: claim, response: response)
        }
    }

    func changes(application: Application, after cursor: ChangeCursor, limit: Int) throws(RegistryError) -> ChangePage {
        try run { try store.changes(application: application, after: cursor, limit: limit) }
    }

    func currentChangeCursor() throws(RegistryError) -> ChangeCursor {
        try run { try store.currentChangeCursor() }
    }
}
