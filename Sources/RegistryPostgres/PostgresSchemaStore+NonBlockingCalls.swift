import EventLoop
import Registry

/// The calls that are one statement each (the reads of GETs, and the writes that record their
/// audit event in the same statement), answered without a thread waiting when started on an
/// event loop: they go to that loop's pipelined sessions and `done` runs later on the loop's
/// thread. Started anywhere else they block like the other methods and call `done` before
/// returning.
extension PostgresSchemaStore {
    public func token(forTokenHash hash: [UInt8], then done: @escaping @Sendable (Result<TokenGrant?, any Error>) -> Void) {
        pool.run(Self.tokenRead(hash: hash), then: done)
    }

    public func application(code: String, then done: @escaping @Sendable (Result<Application?, any Error>) -> Void) {
        pool.run(Self.applicationRead(code: code), then: done)
    }

    public func applications(accountID: Int64, then done: @escaping @Sendable (Result<[Application], any Error>) -> Void) {
        pool.run(Self.applicationsRead(accountID: accountID), then: done)
    }

    public func schema(
        application: Application, attributesType: String, version: Int32,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        pool.run(Self.schemaRead(application: application, attributesType: attributesType, version: version), then: done)
    }

    public func list(
        application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int, includingDisabled: Bool,
        then done: @escaping @Sendable (Result<[SchemaVersion], any Error>) -> Void
    ) {
        pool.run(
            Self.listRead(
                application: application, attributesType: attributesType, after: cursor, limit: limit, includingDisabled: includingDisabled),
            then: done)
    }

    public func changeState(
        application: Application, attributesType: String, version: Int32, to change: StateChange, by actor: AuditActor,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        pool.run(Self.stateChange(application: application, attributesType: attributesType, version: version, to: change, by: actor), then: done)
    }

    public func pinLatest(
        application: Application, attributesType: String, version: Int32, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        pool.run(Self.pinning(application: application, attributesType: attributesType, version: version, by: actor), then: done)
    }

    public func unpinLatest(
        application: Application, attributesType: String, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Int32?, any Error>) -> Void
    ) {
        pool.run(Self.unpinning(application: application, attributesType: attributesType, by: actor), then: done)
    }

    public func latestCandidates(
        application: Application, attributesType: String, then done: @escaping @Sendable (Result<LatestCandidates, any Error>) -> Void
    ) {
        pool.run(Self.latestCandidatesRead(application: application, attributesType: attributesType), then: done)
    }

    public func newestIdentical(
        application: Application, attributesType: String, contentHash: [UInt8],
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        pool.run(Self.newestIdenticalRead(application: application, attributesType: attributesType, contentHash: contentHash), then: done)
    }

    public func types(
        application: Application, filter: TypeFilter, limit: Int?,
        then done: @escaping @Sendable (Result<[TypeSummary], any Error>) -> Void
    ) {
        pool.run(Self.typesRead(application: application, filter: filter, limit: limit), then: done)
    }

    public func compatibilityPolicy(
        application: Application, attributesType: String?, then done: @escaping @Sendable (Result<EffectivePolicy, any Error>) -> Void
    ) {
        pool.run(Self.policyRead(application: application, attributesType: attributesType), then: done)
    }

    /// A query the store refuses (`auditRead`) fails before anything is sent, as it blocks.
    public func auditEvents(_ query: AuditQuery, then done: @escaping @Sendable (Result<[AuditEvent], any Error>) -> Void) {
        let read: StoreStatement<[AuditEvent]>
        do { read = try Self.auditRead(query) } catch { return done(.failure(error)) }
        pool.run(read, then: done)
    }

    public func storedResponse(
        accountID: Int64, applicationID: Int64, idempotencyKey: String,
        then done: @escaping @Sendable (Result<StoredResponse?, any Error>) -> Void
    ) {
        pool.run(Self.storedResponseRead(accountID: accountID, applicationID: applicationID, key: idempotencyKey), then: done)
    }

    public func delete(
        application: Application, attributesType: String, version: Int32, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        pool.run(Self.deletion(application: application, attributesType: attributesType, version: version, by: actor), then: done)
    }

    public func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor,
        then done: @escaping @Sendable (Result<EffectivePolicy, any Error>) -> Void
    ) {
        pool.run(Self.policySetting(application: application, attributesType: attributesType, to: policy, by: actor), then: done)
    }

    public func removeCompatibilityPolicy(
        application: Application, attributesType: String?, by actor: AuditActor,
        then done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        pool.run(Self.policyRemoval(application: application, attributesType: attributesType, by: actor), then: done)
    }

    public func typeMetadata(
        application: Application, attributesType: String, then done: @escaping @Sendable (Result<TypeMetadata?, any Error>) -> Void
    ) {
        pool.run(Self.typeMetadataRead(application: application, attributesType: attributesType), then: done)
    }

    public func setTypeMetadata(
        application: Application, attributesType: String, to metadata: TypeMetadata, by actor: AuditActor,
        then done: @escaping @Sendable (Result<TypeMetadata?, any Error>) -> Void
    ) {
        pool.run(Self.typeMetadataWrite(application: application, attributesType: attributesType, to: metadata, by: actor), then: done)
    }

    public func setVersionMetadata(
        application: Application, attributesType: String, version: Int32, to metadata: VersionMetadata, by actor: AuditActor,
        then done: @escaping @Sendable (Result<SchemaVersion?, any Error>) -> Void
    ) {
        pool.run(
            Self.versionMetadataWrite(application: application, attributesType: attributesType, version: version, to: metadata, by: actor),
            then: done)
    }

    public func search(
        application: Application, query: SearchQuery, after: String?, limit: Int,
        then done: @escaping @Sendable (Result<[SearchResult], any Error>) -> Void
    ) {
        pool.run(Self.searchRead(application: application, query: query, after: after, limit: limit), then: done)
    }
}

extension ConnectionPool {
    /// Runs `statement` on the calling thread's event loop, if it runs one, through that loop's
    /// sessions; otherwise on a pooled session, blocking, with `done` called before returning.
    /// A read goes to the standby while no primary is reachable, and there too when the
    /// primary is found gone while it waited or in flight.
    func run<Value>(_ statement: StoreStatement<Value>, then done: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        guard let loop = EventLoop.current else { return done(Result { try self.run(statement) }) }
        let statement = isStandby ? statement.forStandby : statement
        let isRead = statement.retry == .read
        if isRead, readTarget !== self { return readTarget.run(statement, then: done) }
        if isRead, statement.standbyRead != nil, standbyReads != nil {
            return routed(statement, on: loop, then: done) { [self] in send(statement, on: loop, then: done) }
        }
        send(statement, on: loop, then: done)
    }

    /// `run` on this pool's sessions of `loop`, with the standby as the fallback of a read.
    func send<Value>(_ statement: StoreStatement<Value>, on loop: EventLoop, then done: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        let isRead = statement.retry == .read
        let hints = statement.feedsChanges ? changeHints : nil
        LoopSessions.on(loop, for: self).start(
            statement.onLoop { [self] result in
                if isRead, case .failure(let error as RegistryError) = result, let standby = fallback(forReadFailing: error) {
                    return standby.run(statement, then: done)
                }
                if case .success = result { hints?.noteCommittedChange() }
                done(result)
            })
    }
}
