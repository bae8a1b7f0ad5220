import Registry

/// How much the API may remember, from configuration.
public struct CacheSettings: Sendable {
    /// Bytes of rendered versions and forms; 0 disables.
    public var responseBytes: Int
    /// Seconds a token or application lookup may be served from memory; 0 disables. Token
    /// revocation and scope, application or expiry changes reach a replica within this bound
    /// even if their notification is lost.
    public var lookupSeconds: Double
    /// Memory for validated schema documents, which publishing reuses, bookkeeping included;
    /// 0 disables. Part of the 64 MB the service is measured against (bench/README.md).
    public var documentBytes: Int
    /// Names the build in every version and form `ETag` (see `EntityTag.derived`).
    public var entityTagSalt: String
    /// How long a state change, pin, unpin or delete waits after its commit for every live
    /// replica to apply it before it answers (`PropagationBarrier`); 0 answers at once.
    public var propagationTimeoutMilliseconds: Int

    public init(
        responseBytes: Int = 0, lookupSeconds: Double = 0, documentBytes: Int = 4 << 20, entityTagSalt: String = "",
        propagationTimeoutMilliseconds: Int = 5000
    ) {
        self.responseBytes = responseBytes
        self.lookupSeconds = lookupSeconds
        self.documentBytes = documentBytes
        self.entityTagSalt = entityTagSalt
        self.propagationTimeoutMilliseconds = propagationTimeoutMilliseconds
    }
}

/// The API's caches together, and their one owner: handlers read and fill the caches a change
/// makes stale only through `response(_:orRead:)` and `latestVersion(_:orRead:)`, and every
/// change, made here or learnt from the feed, is forgotten through `forget`, under one race
/// guard (`CacheGuard`).
final class Caches: Sendable {
    let responses: ResponseCache
    let tokens: ExpiringCache<DigestKey, TokenGrant>
    /// Token hashes that matched no live token: a client repeating a bad token (a flood, or a
    /// misconfigured one retrying) costs a memory lookup, not a database query, each time.
    /// Revocation only turns successes into failures, so caching failures never grants access.
    let failedTokens: ExpiringCache<DigestKey, Bool>
    /// The newest live version of each type, for `latest`; kept exactly when responses are.
    let latest: LatestVersions
    /// By code, keyed by its bytes as the database compares codes.
    let applications: ExpiringCache<ExactName, Application>
    /// Content-addressed, so no change ever needs to touch it.
    let documents: SchemaDocumentCache
    /// Content-addressed too: a quarter of the documents' budget.
    let diffs: DiffCache
    let entityTagSalt: String
    let propagationTimeout: Duration
    /// Shared by `responses` and `latest`.
    private let cacheGuard: CacheGuard
    /// Raised while the change follower is late (the guard's).
    var fence: CacheFence { cacheGuard.fence }

    init(_ settings: CacheSettings, clock: @escaping @Sendable () -> Double) {
        let cacheGuard = CacheGuard()
        self.cacheGuard = cacheGuard
        propagationTimeout = .milliseconds(max(0, settings.propagationTimeoutMilliseconds))
        responses = ResponseCache(capacityBytes: settings.responseBytes, guardedBy: cacheGuard)
        latest = LatestVersions(enabled: settings.responseBytes > 0, guardedBy: cacheGuard)
        documents = SchemaDocumentCache(capacityBytes: settings.documentBytes)
        diffs = DiffCache(capacityBytes: settings.documentBytes / 4)
        tokens = ExpiringCache(lifetime: settings.lookupSeconds, clock: clock)
        failedTokens = ExpiringCache(lifetime: settings.lookupSeconds, clock: clock)
        applications = ExpiringCache(lifetime: settings.lookupSeconds, clock: clock)
        entityTagSalt = settings.entityTagSalt
    }

    /// The rendered body for `key`: from memory, else from `read` and kept unless a change to
    /// the version was forgotten meanwhile. `read` counts the miss once it has read the store
    /// (`noteMiss`), so a lookup whose read never runs counts nothing.
    func response(
        _ key: ResponseCache.Key, orRead read: () async throws(RegistryError) -> ResponseCache.Entry
    ) async throws(RegistryError) -> ResponseCache.Entry {
        if let cached = responses.entry(key) { return cached }
        let ticket = responses.ticket(key)
        let entry = try await read()
        responses.insert(entry, for: key, readAt: ticket)
        return entry
    }

    /// Counts a body that was not cached and was read from the store.
    func noteMiss(_ key: ResponseCache.Key) {
        responses.recordMiss(key)
    }

    /// The number `latest` names for a type: from memory, else from `read` and remembered
    /// unless a publish, delete, state change or pin of the type was forgotten meanwhile.
    func latestVersion(
        _ key: LatestVersions.Key, orRead read: () async throws(RegistryError) -> Int32
    ) async throws(RegistryError) -> Int32 {
        if let known = latest.version(key) { return known }
        let ticket = latest.ticket(key)
        let version = try await read()
        latest.remember(version, for: key, readAt: ticket)
        return version
    }

    /// Forgets what a committed change makes stale: a publish or a pin moves its type's
    /// `latest`; a delete or a state change may move it too and also changes (or removes) the
    /// version's body and form; a version's new labels or release notes change its rendered
    /// body. A version's content never changes, no cache holds a policy (publishes read theirs
    /// in their own statement) and none holds a type's metadata, so nothing else is.
    func forget(_ change: CommittedChange) {
        guard let attributesType = change.attributesType else { return }
        switch change.kind {
        case .published, .latestPinned:
            latest.invalidate(LatestVersions.Key(applicationID: change.applicationID, attributesType: attributesType))
        case .deleted, .stateChanged:
            latest.invalidate(LatestVersions.Key(applicationID: change.applicationID, attributesType: attributesType))
            if let version = change.version {
                responses.invalidate(applicationID: change.applicationID, attributesType: attributesType, version: version)
            }
        case .metadataChanged:
            if let version = change.version {
                responses.invalidate(applicationID: change.applicationID, attributesType: attributesType, version: version)
            }
        case .policyChanged:
            break
        }
    }

    func flush() {
        responses.flush()
        latest.flush()
        tokens.removeAll()
        failedTokens.removeAll()
        applications.removeAll()
    }
}
