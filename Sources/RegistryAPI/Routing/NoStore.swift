import Registry

/// The store behind an operations-only listener, which has no route that reads schemas.
struct NoStore: SchemaStore {
    private func unavailable() -> RegistryError { .unavailable("this listener serves probes and metrics only") }
    func token(forTokenHash hash: [UInt8]) throws -> TokenGrant? { throw unavailable() }
    func application(code: String) throws -> Application? { throw unavailable() }
    func applications(accountID: Int64) throws -> [Application] { throw unavailable() }
    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        once claim: IdempotencyClaim?, response: (Publication) throws -> PublishAnswer
    ) throws -> IdempotentPublish { throw unavailable() }
    func storedResponse(accountID: Int64, idempotencyKey: String) throws -> StoredResponse? { throw unavailable() }
    func schema(application: Application, attributesType: String, version: Int32) throws -> SchemaVersion? { throw unavailable() }
    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) throws
        -> [SchemaVersion]
    { throw unavailable() }
    func distinctLiveSchemas(application: Application, attributesType: String) throws -> [EarlierSchema] { throw unavailable() }
    func delete(application: Application, attributesType: String, version: Int32, by actor: AuditActor) throws -> Bool {
        throw unavailable()
    }
    func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] { throw unavailable() }
}
