import Registry

/// The store behind an operations-only listener, which has no route that reads schemas.
struct NoStore: SchemaStore {
    private func unavailable() -> RegistryError { .unavailable("this listener serves probes and metrics only") }
    func accountID(forTokenHash hash: [UInt8]) throws -> Int64? { throw unavailable() }
    func application(code: String) throws -> Application? { throw unavailable() }
    func applications(accountID: Int64) throws -> [Application] { throw unavailable() }
    func publish(application: Application, attributesType: String, version: VersionRequest, jsonSchema: String) throws
        -> Publication
    { throw unavailable() }
    func publish(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String,
        once claim: IdempotencyClaim?, response: (Publication) throws -> [UInt8]
    ) throws -> IdempotentPublish { throw unavailable() }
    func storedResponse(accountID: Int64, idempotencyKey: String) throws -> StoredResponse? { throw unavailable() }
    func schema(application: Application, attributesType: String, version: Int32) throws -> SchemaVersion? { throw unavailable() }
    func list(application: Application, attributesType: String?, after cursor: ListCursor?, limit: Int?) throws
        -> [SchemaVersion]
    { throw unavailable() }
    func distinctLiveSchemas(application: Application, attributesType: String) throws -> [EarlierSchema] { throw unavailable() }
    func delete(application: Application, attributesType: String, version: Int32) throws -> Bool { throw unavailable() }
    func changes(application: Application, after cursor: ChangeCursor, limit: Int) throws -> ChangePage { throw unavailable() }
    func currentChangeCursor() throws -> ChangeCursor { throw unavailable() }
}
