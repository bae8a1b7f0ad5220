import Registry

/// The store behind an operations-only listener, which has no route that reads schemas.
struct NoStore: SchemaStore {
    private func unavailable() -> RegistryError { .unavailable("this listener serves probes and metrics only") }
    func token(forTokenHash hash: [UInt8]) throws -> TokenGrant? { throw unavailable() }
    func application(code: String) throws -> Application? { throw unavailable() }
    func applications(accountID: Int64) throws -> [Application] { throw unavailable() }
    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?, response: (Publication) throws -> PublishAnswer
    ) throws -> IdempotentPublish { throw unavailable() }
    func storedResponse(accountID: Int64, idempotencyKey: String) throws -> StoredResponse? { throw unavailable() }
    func schema(application: Application, attributesType: String, version: Int32) throws -> SchemaVersion? { throw unavailable() }
    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) throws
        -> [SchemaVersion]
    { throw unavailable() }
    func comparisonBasis(application: Application, attributesType: String, below version: Int32?, comparing comparison: Comparison)
        throws -> ComparisonBasis
    { throw unavailable() }
    func compatibilityPolicy(application: Application, attributesType: String?) throws -> EffectivePolicy { throw unavailable() }
    func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor
    ) throws -> EffectivePolicy { throw unavailable() }
    func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) throws -> Bool {
        throw unavailable()
    }
    func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) throws -> Bool {
        throw unavailable()
    }
    func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] { throw unavailable() }
    func types(application: Application, filter: TypeFilter, limit: Int?) throws -> [TypeSummary] { throw unavailable() }
    func newestIdentical(application: Application, attributesType: String, contentHash: [UInt8]) throws -> SchemaVersion? {
        throw unavailable()
    }
    func publishUnlessNewestIdentical(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        comparing comparison: Comparison, once claim: IdempotencyClaim?, response: (Publication) throws -> PublishAnswer
    ) throws -> FindOrPublish { throw unavailable() }
    func changes(application: Application, after cursor: ChangeCursor, limit: Int) throws -> ChangePage { throw unavailable() }
    func currentChangeCursor() throws -> ChangeCursor { throw unavailable() }
}
