import Registry

/// Compatibility policies: one row per application (`attributes_type` '') and per type that
/// overrides it. Publishes read them in their own statement (see `effectivePolicy`), never
/// from a cache, so a change binds the next publish on every replica.
extension PostgresSchemaStore {
    public func compatibilityPolicy(application: Application, attributesType: String?) throws -> EffectivePolicy {
        try pool.read(Self.policyRead(application: application, attributesType: attributesType))
    }

    /// The policy in force for a type (nil: the application's default) and where it was set.
    /// The statement always answers one row (the built-in default at worst); none is a 500.
    static func policyRead(application: Application, attributesType: String?) -> StoreRead<EffectivePolicy> {
        StoreRead(statement: readPolicy, parameters: [application.id, attributesType ?? ""]) { result in
            guard let row = result.rows.first else { throw RegistryError.internal("the compatibility policy was not read") }
            return try effectivePolicy(row, from: 0)
        }
    }

    /// One transaction with the change's audit event (the policy set in its details), so both
    /// commit or neither does.
    public func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor
    ) throws -> EffectivePolicy {
        try pool.perform(.write) { connection in
            try connection.transaction {
                let parameters: [(any PGParameter)?] = [
                    application.id, attributesType ?? "", policy.mode.rawValue, policy.enforce.rawValue,
                    policy.oldestSupportedVersion,
                ]
                guard let row = try connection.execute(Self.upsertPolicy, parameters).rows.first else {
                    throw RegistryError.internal("the compatibility policy was not written")
                }
                try Self.recordPolicyChange(
                    application: application, attributesType: attributesType, by: actor,
                    details: ["policy": .object(policy.jsonValue)], on: connection)
                return try Self.effectivePolicy(row, from: 0)
            }
        }
    }

    /// One transaction with its audit event, like setting a policy; nothing is recorded when
    /// there was no policy to remove.
    public func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) throws -> Bool {
        try pool.perform(.write) { connection in
            try connection.transaction {
                guard try !connection.execute(Self.deletePolicy, [application.id, attributesType ?? ""]).rows.isEmpty else {
                    return false
                }
                try Self.recordPolicyChange(
                    application: application, attributesType: attributesType, by: actor, details: ["policy": .null], on: connection)
                return true
            }
        }
    }

    /// The `policy_change` audit event, in the caller's transaction; `attributesType` nil for
    /// the application's own policy.
    private static func recordPolicyChange(
        application: Application, attributesType: String?, by actor: AuditActor, details: JSONObject, on connection: PGConnection
    ) throws(PGError) {
        try AuditLog.record(
            AuditRecord(
                accountID: application.accountID, actor: actor, action: .policyChange, applicationID: application.id,
                attributesType: attributesType, details: details),
            on: connection)
    }

    static let readPolicy = PGStatement(file: "policy_read")

    static let upsertPolicy = PGStatement(file: "policy_upsert")

    static let deletePolicy = PGStatement(file: "policy_delete")
}
