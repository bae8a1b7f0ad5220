import Registry

/// The audit trail's writes: one row per change, always on the connection and inside the
/// transaction of the change it records, so neither can commit without the other. Never holds
/// a token secret.
public enum AuditLog {
    /// Inserts one audit event. Call it inside `connection.transaction { … }` after the change
    /// succeeded, so a failure of either rolls both back.
    public static func record(_ record: AuditRecord, on connection: PGConnection) throws(PGError) {
        try connection.execute(
            insert,
            [
                record.accountID, record.actor.kind.rawValue, record.actor.tokenID, record.actor.tokenName,
                record.action.rawValue, record.applicationID, record.attributesType, record.version, record.actor.requestID,
                JSONWriter.string(.object(record.details)),
            ])
    }

    /// Deletes events older than `days` in batches of `batchSize` rows, each its own short
    /// statement, so pruning never holds many locks or a long transaction. Returns how many
    /// it deleted.
    public static func prune(olderThanDays days: Int, batchSize: Int = 1000, pool: ConnectionPool) throws -> Int {
        var total = 0
        while true {
            let deleted = try pool.perform(.write) { connection in
                try connection.execute(pruneBatch, [Int64(days), Int64(batchSize)]).affectedRows
            }
            total += deleted
            if deleted < batchSize { return total }
        }
    }

    static let insert = PGStatement(file: "audit_insert")

    static let pruneBatch = PGStatement(file: "audit_prune_batch")
}
