import Registry

/// Compatibility policies: one row per application (`attributes_type` '') and per type that
/// overrides it. Publishes read them in their own statement (see `effectivePolicy`), never
/// from a cache, so a change binds the next publish on every replica.
extension PostgresSchemaStore {
    /// The policy in force for a type (nil: the application's default) and where it was set.
    /// The statement always answers one row (the built-in default at worst); none is a 500.
    public func compatibilityPolicy(application: Application, attributesType: String?) async throws -> EffectivePolicy {
        try await pool.value(of: StoreStatement(statement: Self.readPolicy, parameters: [application.id, attributesType ?? ""]) { result in
            guard let row = result.rows.first else { throw RegistryError.internal("the compatibility policy was not read") }
            return try Self.effectivePolicy(row, from: 0)
        })
    }

    /// Sets the policy and records its `policy_change` event (the policy in its details) in one
    /// statement, so both commit or neither does.
    public func setCompatibilityPolicy(
        application: Application, attributesType: String?, to policy: CompatibilityPolicy, by actor: AuditActor
    ) async throws -> EffectivePolicy {
        let parameters: [(any PGParameter)?] = [
            application.id, attributesType ?? "", policy.mode.rawValue, policy.enforce.rawValue, policy.oldestSupportedVersion,
        ]
        let event = Self.policyChange(
            application: application, attributesType: attributesType, by: actor, details: ["policy": .object(policy.jsonValue)])
        return try await pool.value(
            of: StoreStatement(statement: Self.upsertPolicy, parameters: parameters + event.parameters, retry: .write, feedsChanges: true) {
                result in
                guard let row = result.rows.first else { throw RegistryError.internal("the compatibility policy was not written") }
                return try Self.effectivePolicy(row, from: 0)
            })
    }

    /// Removes the policy and records its event in one statement; nothing is recorded (no row)
    /// when there was no policy to remove.
    public func removeCompatibilityPolicy(application: Application, attributesType: String?, by actor: AuditActor) async throws -> Bool {
        let event = Self.policyChange(application: application, attributesType: attributesType, by: actor, details: ["policy": .null])
        return try await pool.value(
            of: StoreStatement(
                statement: Self.deletePolicy, parameters: [application.id, attributesType ?? ""] + event.parameters, retry: .write,
                feedsChanges: true
            ) { result in !result.rows.isEmpty })
    }

    /// The `policy_change` audit event; `attributesType` nil for the application's own policy.
    private static func policyChange(application: Application, attributesType: String?, by actor: AuditActor, details: JSONObject)
        -> AuditRecord
    {
        AuditRecord(
            accountID: application.accountID, actor: actor, action: .policyChange, applicationID: application.id,
            attributesType: attributesType, details: details)
    }

    static let readPolicy = PGStatement(file: "policy_read")

    static let upsertPolicy = PGStatement(file: "policy_upsert")

    static let deletePolicy = PGStatement(file: "policy_delete")
}
