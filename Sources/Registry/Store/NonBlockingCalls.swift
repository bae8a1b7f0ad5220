/// The calls a request makes that are one statement each, offered so that no thread waits for
/// them: the reads of GETs (its token, its application, one version, a list of versions, the
/// type index, the applications, a policy and the audit trail), the lookup of a version by
/// content, an idempotency key's recorded response, and the writes that are one statement with
/// their audit event (deleting a version, setting or removing a policy). A store that can start
/// a statement and be told when it completes (PostgreSQL on the caller's event loop) overrides
/// these, and the request holds only its suspended connection meanwhile.
///
/// `done` is called exactly once: later, on the thread that started the read when that thread
/// runs an event loop; or before returning, on the calling thread, when the store can only
/// block (the defaults below, and any caller without an event loop).
public protocol NonBlockingCalls: Sendable {
    func token(forTokenHash hash: [UInt8], then done: @escaping @Sendable (Result<TokenGrant?, any Error>) -> Void)
    func application(code: String, then done: @escaping @Sendable (Result<Application?, any Error>) -> Void)
    /// `SchemaStore.applications`: an account's applications, ordered by code.
    func applications(accountID: Int64, then done: @escaping @Sendable (Result<[Application], any Error>) -> Void)
    func schema(
        application: Application, attributesType: String, version: Int32,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void)
    /// `SchemaStore.list`: live versions in list order, optionally of one type, after `cursor`,
    /// at most `limit`, disabled ones only when `includingDisabled`.
    func list(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int, includingDisabled: Bool,
        then done: @escaping @Sendable (Result<[SchemaVersion], any Error>) -> Void)
    /// `SchemaStore.changeState`: moves a live version to another state with its audit event.
    func changeState(
        application: Application, attributesType: String, version: Int32, to change: StateChange, by actor: AuditActor,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void)
    /// `SchemaStore.pinLatest`: pins `latest` with its audit event; false when the version cannot be pinned.
    func pinLatest(
        application: Application, attributesType: String, version: Int32, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void)
    /// `SchemaStore.unpinLatest`: removes the pin with its audit event; the version it named.
    func unpinLatest(
        application: Application, attributesType: String, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Int32?, any Error>) -> Void)
    /// `SchemaStore.latestCandidates`: what `latest` chooses from.
    func latestCandidates(
        application: Application, attributesType: String, then done: @escaping @Sendable (Result<LatestCandidates, any Error>) -> Void)
    /// `SchemaStore.newestIdentical`: the newest live version of a type with this content hash.
    func newestIdentical(
        application: Application, attributesType: String, contentHash: [UInt8],
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void)
    /// `SchemaStore.types`: the type index.
    func types(
        application: Application, filter: TypeFilter, limit: Int?,
        then done: @escaping @Sendable (Result<[TypeSummary], any Error>) -> Void)
    /// `SchemaStore.compatibilityPolicy`: the policy in force and where it was set.
    func compatibilityPolicy(
        application: Application, attributesType: String?, then done: @escaping @Sendable (Result<EffectivePolicy, any Error>) -> Void)
    /// `SchemaStore.auditEvents`: audit events matching `query`, in its order.
    func auditEvents(_ query: AuditQuery, then done: @escaping @Sendable (Result<[AuditEvent], any Error>) -> Void)
    /// `SchemaStore.storedResponse`: the response recorded under an application's idempotency key.
    func storedResponse(
        accountID: Int64, applicationID: Int64, idempotencyKey: String,
        then done: @escaping @Sendable (Result<StoredResponse?, any Error>) -> Void)
    /// `SchemaStore.delete`: deletes a live version with its audit event; false when none.
    func delete(
        application: Application, attributesType: String, version: Int32, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void)
    /// `SchemaStore.setCompatibilityPolicy`: sets a policy with its audit event.
    func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor,
        then done: @escaping @Sendable (Result<EffectivePolicy, any Error>) -> Void)
    /// `SchemaStore.removeCompatibilityPolicy`: removes a policy with its audit event; false
    /// when none was set.
    func removeCompatibilityPolicy(
        application: Application, attributesType: String?, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void)
    /// `SchemaStore.typeMetadata`: a live type's metadata; nil when it has no live version.
    func typeMetadata(
        application: Application, attributesType: String, then done: @escaping @Sendable (Result<TypeMetadata?, any Error>) -> Void)
    /// `SchemaStore.setTypeMetadata`: replaces a type's metadata with its audit event.
    func setTypeMetadata(
        application: Application, attributesType: String, to metadata: TypeMetadata, by actor: AuditActor,
        then done: @escaping @Sendable (Result<TypeMetadata?, any Error>) -> Void)
    /// `SchemaStore.setVersionMetadata`: replaces a version's labels and notes with its audit event.
    func setVersionMetadata(
        application: Application, attributesType: String, version: Int32, to metadata: VersionMetadata, by actor: AuditActor,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void)
    /// `SchemaStore.search`: one page of a search.
    func search(
        application: Application, query: SearchQuery, after: String?, limit: Int,
        then done: @escaping @Sendable (Result<[SearchResult], any Error>) -> Void)
}

extension NonBlockingCalls where Self: SchemaStore {
    public func token(forTokenHash hash: [UInt8], then done: @escaping @Sendable (Result<TokenGrant?, any Error>) -> Void) {
        done(Result { try token(forTokenHash: hash) })
    }

    public func application(code: String, then done: @escaping @Sendable (Result<Application?, any Error>) -> Void) {
        done(Result { try application(code: code) })
    }

    public func applications(accountID: Int64, then done: @escaping @Sendable (Result<[Application], any Error>) -> Void) {
        done(Result { try applications(accountID: accountID) })
    }

    public func schema(
        application: Application, attributesType: String, version: Int32,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        done(Result { try schema(application: application, attributesType: attributesType, version: version) })
    }

    public func list(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int, includingDisabled: Bool,
        then done: @escaping @Sendable (Result<[SchemaVersion], any Error>) -> Void
    ) {
        done(Result {
            try list(application: application, attributesType: attributesType, after: cursor, limit: limit, includingDisabled: includingDisabled)
        })
    }

    public func changeState(
        application: Application, attributesType: String, version: Int32, to change: StateChange, by actor: AuditActor,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        done(Result { try changeState(application: application, attributesType: attributesType, version: version, to: change, by: actor) })
    }

    public func pinLatest(
        application: Application, attributesType: String, version: Int32, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        done(Result { try pinLatest(application: application, attributesType: attributesType, version: version, by: actor) })
    }

    public func unpinLatest(
        application: Application, attributesType: String, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Int32?, any Error>) -> Void
    ) {
        done(Result { try unpinLatest(application: application, attributesType: attributesType, by: actor) })
    }

    public func latestCandidates(
        application: Application, attributesType: String, then done: @escaping @Sendable (Result<LatestCandidates, any Error>) -> Void
    ) {
        done(Result { try latestCandidates(application: application, attributesType: attributesType) })
    }

    public func newestIdentical(
        application: Application, attributesType: String, contentHash: [UInt8],
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        done(Result { try newestIdentical(application: application, attributesType: attributesType, contentHash: contentHash) })
    }

    public func types(
        application: Application, filter: TypeFilter, limit: Int?,
        then done: @escaping @Sendable (Result<[TypeSummary], any Error>) -> Void
    ) {
        done(Result { try types(application: application, filter: filter, limit: limit) })
    }

    public func compatibilityPolicy(
        application: Application, attributesType: String?, then done: @escaping @Sendable (Result<EffectivePolicy, any Error>) -> Void
    ) {
        done(Result { try compatibilityPolicy(application: application, attributesType: attributesType) })
    }

    public func auditEvents(_ query: AuditQuery, then done: @escaping @Sendable (Result<[AuditEvent], any Error>) -> Void) {
        done(Result { try auditEvents(query) })
    }

    public func storedResponse(
        accountID: Int64, applicationID: Int64, idempotencyKey: String,
        then done: @escaping @Sendable (Result<StoredResponse?, any Error>) -> Void
    ) {
        done(Result { try storedResponse(accountID: accountID, applicationID: applicationID, idempotencyKey: idempotencyKey) })
    }

    public func delete(
        application: Application, attributesType: String, version: Int32, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        done(Result { try delete(application: application, attributesType: attributesType, version: version, by: actor) })
    }

    public func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor,
        then done: @escaping @Sendable (Result<EffectivePolicy, any Error>) -> Void
    ) {
        done(Result { try setCompatibilityPolicy(application: application, attributesType: attributesType, to: policy, by: actor) })
    }

    public func removeCompatibilityPolicy(
        application: Application, attributesType: String?, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        done(Result { try removeCompatibilityPolicy(application: application, attributesType: attributesType, by: actor) })
    }

    public func typeMetadata(
        application: Application, attributesType: String, then done: @escaping @Sendable (Result<TypeMetadata?, any Error>) -> Void
    ) {
        done(Result { try typeMetadata(application: application, attributesType: attributesType) })
    }

    public func setTypeMetadata(
        application: Application, attributesType: String, to metadata: TypeMetadata, by actor: AuditActor,
        then done: @escaping @Sendable (Result<TypeMetadata?, any Error>) -> Void
    ) {
        done(Result { try setTypeMetadata(application: application, attributesType: attributesType, to: metadata, by: actor) })
    }

    public func setVersionMetadata(
        application: Application, attributesType: String, version: Int32, to metadata: VersionMetadata, by actor: AuditActor,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        done(Result { try setVersionMetadata(application: application, attributesType: attributesType, version: version, to: metadata, by: actor) })
    }

    public func search(
        application: Application, query: SearchQuery, after: String?, limit: Int,
        then done: @escaping @Sendable (Result<[SearchResult], any Error>) -> Void
    ) {
        done(Result { try search(application: application, query: query, after: after, limit: limit) })
    }
}

extension NonBlockingCalls {
    /// `list` without disabled versions: what every reader but an `include=disabled` list sees.
    public func list(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int,
        then done: @escaping @Sendable (Result<[SchemaVersion], any Error>) -> Void
    ) {
        list(application: application, attributesType: attributesType, after: cursor, limit: limit, includingDisabled: false, then: done)
    }
}
