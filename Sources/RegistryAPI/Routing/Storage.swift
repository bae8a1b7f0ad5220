import Registry

/// The store as handlers see it: every call throws only `RegistryError`. A store is expected
/// to throw `RegistryError`s already; anything else is a bug there, answered as a plain 500
/// without leaking its text.
///
/// On an event loop the store must not be reached (it blocks): there, storage is
/// `memoryOnly`, cache hits still answer, and anything else throws `needsHandlerThread`.
struct Storage: Sendable {
    let store: any SchemaStore
    let metrics: Metrics
    let caches: Caches
    private(set) var memoryOnly = false

    init(store: any SchemaStore, metrics: Metrics, caches: Caches) {
        self.store = store
        self.metrics = metrics
        self.caches = caches
    }

    /// This storage for an event loop.
    var withoutStore: Storage {
        var copy = self
        copy.memoryOnly = true
        return copy
    }

    private func run<T>(_ body: () throws -> T) throws(RegistryError) -> T {
        guard !memoryOnly else { throw .needsHandlerThread }
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

    /// Served from the short-lived lookup caches when enabled, failures included (a new
    /// token's hash has never failed, so it works at once). A cached failure is answered even
    /// on an event loop. The expiry is checked on every use, so a cached grant never outlives
    /// its token.
    func token(forTokenHash hash: [UInt8], now: Double) throws(RegistryError) -> TokenGrant? {
        let key = DigestKey(bytes: hash)
        if caches.failedTokens.cached(key) != nil { return nil }
        let grant = try caches.tokens.value(for: key) { () throws(RegistryError) in
            try run { try store.token(forTokenHash: hash) }
        }
        guard let grant else {
            caches.failedTokens.store(true, for: key)
            return nil
        }
        return grant.isExpired(now: now) ? nil : grant
    }

    func application(code: String) throws(RegistryError) -> Application? {
        try caches.applications.value(for: ExactName(code)) { () throws(RegistryError) in try run { try store.application(code: code) } }
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

extension RegistryError {
    /// Thrown by `memoryOnly` storage when a request needs the store; the request is then
    /// answered again from the start on a handler thread. Never reaches a client.
    static let needsHandlerThread = RegistryError(code: .unavailable, message: "internal: this request needs a handler thread")
}
