import Registry

/// The audit trail's writes: one row per change, always in the transaction (or the single
/// statement) of the change it records, so neither can commit without the other. Never holds a
/// token secret. Every write goes through `registry_record_audit_event` (migration 0011).
public enum AuditLog {
    /// Inserts one audit event. Call it inside `connection.transaction { … }` after the change
    /// succeeded, so a failure of either rolls both back.
    public static func record(_ record: AuditRecord, on connection: PGConnection) throws(PGError) {
        try connection.execute(insert, record.parameters)
    }

    /// Deletes events older than `days` in batches of `batchSize` rows, each its own short
    /// statement, so pruning never holds many locks or a long transaction. Returns how many
    /// it deleted.
    public static func prune(olderThanDays days: Int, batchSize: Int = 1000, pool: ConnectionPool) throws -> Int {
        try pool.deleteInBatches(pruneBatch, olderThanDays: days, batchSize: batchSize)
    }

    static let insert = PGStatement(file: "audit_insert")

    static let pruneBatch = PGStatement(file: "audit_prune_batch")
}

extension AuditRecord {
    /// The arguments of `registry_record_audit_event`, in its order; a statement that records
    /// its change's event passes them after its own.
    var parameters: [(any PGParameter)?] {
        [
            accountID, actor.kind.rawValue, actor.tokenID, actor.tokenName, action.rawValue, applicationID, attributesType,
            version, actor.requestID, JSONWriter.string(.object(details)),
        ]
    }
}
