import Registry

extension PostgresSchemaStore {
    /// One write transaction on one session (`ConnectionPool.transaction`): on an event loop it
    /// holds a leased session and no thread. Once it committed, the other replicas get a hint
    /// to read the change feed: the transaction itself sends none.
    public func transaction<T: Sendable>(_ body: (any PublishTransaction) async throws -> T) async throws -> T {
        let value = try await pool.transaction { session in try await body(PostgresPublishTransaction(session: session)) }
        pool.changeHints.noteCommittedChange()
        return value
    }
}

/// The steps of a publish on the session of an open transaction. SQL only: what the steps
/// mean and in which order they run is the domain's publish operation.
struct PostgresPublishTransaction: PublishTransaction {
    let session: any TransactionSession

    func claim(_ claim: IdempotencyClaim) async throws -> StoredResponse? {
        try await PostgresSchemaStore.claim(claim, on: session)
    }

    func insert(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata, fieldPaths: [String]?, comparing comparison: Comparison
    ) async throws -> Publication {
        do {
            return try await PostgresSchemaStore.reviewedPublication(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                metadata: metadata, fieldPaths: fieldPaths, comparing: comparison, on: session)
        } catch let error as PGError {
            if error.kind == .server, let conflict = PostgresSchemaStore.publishConflict(error, attributesType: attributesType, version: version) {
                throw conflict
            }
            throw error
        }
    }

    func recordWarnings(_ warnings: [JSONValue], of schema: SchemaVersion, in application: Application) async throws {
        try await session.write(
            PostgresSchemaStore.recordVersionWarnings,
            [application.id, schema.attributesType, schema.version, JSONWriter.string(.array(warnings))])
    }

    func lockType(application: Application, attributesType: String) async throws -> LockedType {
        try await PostgresSchemaStore.lockType(application: application, attributesType: attributesType, on: session)
    }

    func record(_ record: AuditRecord) async throws {
        try await session.write(AuditLog.insert, record.parameters)
    }

    func recordResponse(_ body: [UInt8], under claim: IdempotencyClaim) async throws {
        try await session.write(
            PostgresSchemaStore.recordResponse,
            [claim.accountID, claim.applicationID, claim.key, String(decoding: body, as: UTF8.self)])
    }
}
