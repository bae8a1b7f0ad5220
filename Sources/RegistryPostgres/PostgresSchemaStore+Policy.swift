import Registry

/// Compatibility policies: one row per application (`attributes_type` '') and per type that
/// overrides it. Publishes read them in their own statement (see `effectivePolicy`), never
/// from a cache, so a change binds the next publish on every replica.
extension PostgresSchemaStore {
    public func compatibilityPolicy(application: Application, attributesType: String?) throws -> EffectivePolicy {
        try pool.perform(.read) { connection in
            guard let row = try connection.execute(Self.readPolicy, [application.id, attributesType ?? ""]).rows.first else {
                throw RegistryError.internal("the compatibility policy was not read")
            }
            return try Self.effectivePolicy(row, from: 0)
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

    static let readPolicy = PGStatement(
        "policy_read", "WITH \(effectivePolicy) SELECT \(policyColumns) FROM policy")

    static let upsertPolicy = PGStatement(
        "policy_upsert",
        """
        INSERT INTO compatibility_policies AS p (application_id, attributes_type, mode, enforce, oldest_supported_version)
        VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::integer)
        ON CONFLICT (application_id, attributes_type) DO UPDATE
        SET mode = EXCLUDED.mode, enforce = EXCLUDED.enforce,
            oldest_supported_version = EXCLUDED.oldest_supported_version, updated = now()
        RETURNING mode, enforce, oldest_supported_version,
                  CASE WHEN attributes_type = '' THEN 'application' ELSE 'type' END, \(SQLText.utc("updated"))
        """)

    static let deletePolicy = PGStatement(
        "policy_delete",
        "DELETE FROM compatibility_policies WHERE application_id = $1::bigint AND attributes_type = $2::text RETURNING 1")
}
