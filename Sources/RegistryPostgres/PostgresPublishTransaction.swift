import Registry

extension PostgresSchemaStore {
    /// One write transaction on one session. A transient conflict (serialization failure,
    /// deadlock) runs `body` again from the start on a new transaction. Once it committed, the
    /// other replicas get a hint to read the change feed: the transaction itself sends none.
    public func transaction<T>(_ body: (any PublishTransaction) throws -> T) throws -> T {
        let value = try pool.perform(.write) { connection in
            try connection.transaction { try body(PostgresPublishTransaction(connection: connection)) }
        }
        pool.changeHints.noteCommittedChange()
        return value
    }
}

/// The steps of a publish on the session of an open transaction. SQL only: what the steps
/// mean and in which order they run is the domain's publish operation.
struct PostgresPublishTransaction: PublishTransaction {
    let connection: PGConnection

    func claim(_ claim: IdempotencyClaim) throws -> StoredResponse? {
        try PostgresSchemaStore.claim(claim, on: connection)
    }

    func insert(
        application: Application, attributesType: String, version: VersionRequest, jsonSchema: String, by actor: AuditActor,
        metadata: VersionMetadata, fieldPaths: [String]?, comparing comparison: Comparison
    ) throws -> Publication {
        do {
            return try PostgresSchemaStore.reviewedPublication(
                application: application, attributesType: attributesType, version: version, jsonSchema: jsonSchema, by: actor,
                metadata: metadata, fieldPaths: fieldPaths, comparing: comparison, on: connection)
        } catch let error as PGError {
            if error.kind == .server, let conflict = PostgresSchemaStore.publishConflict(error, attributesType: attributesType, version: version) {
                throw conflict
            }
            throw error
        }
    }

    func recordWarnings(_ warnings: [JSONValue], of schema: SchemaVersion, in application: Application) throws {
        _ = try connection.execute(
            PostgresSchemaStore.recordVersionWarnings,
            [application.id, schema.attributesType, schema.version, JSONWriter.string(.array(warnings))])
    }

    func lockType(application: Application, attributesType: String) throws -> LockedType {
        try PostgresSchemaStore.lockType(application: application, attributesType: attributesType, on: connection)
    }

    func record(_ record: AuditRecord) throws {
        try AuditLog.record(record, on: connection)
    }

    func recordResponse(_ body: [UInt8], under claim: IdempotencyClaim) throws {
        _ = try connection.execute(
            PostgresSchemaStore.recordResponse,
            [claim.accountID, claim.applicationID, claim.key, String(decoding: body, as: UTF8.self)])
    }
}
