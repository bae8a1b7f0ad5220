import Registry

extension PostgresSchemaStore {
    /// The `publish` audit event of `schema`, on the publishing transaction's connection.
    static func recordPublish(
        _ schema: SchemaVersion, of application: Application, by actor: AuditActor, details: JSONObject,
        on connection: PGConnection
    ) throws(PGError) {
        try AuditLog.record(
            AuditRecord(
                accountID: application.accountID, actor: actor, action: .publish, applicationID: application.id,
                attributesType: schema.attributesType, version: schema.version, details: details),
            on: connection)
    }
}
