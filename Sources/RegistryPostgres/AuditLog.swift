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

    static let insert = PGStatement(
        "audit_insert",
        """
        INSERT INTO audit_events (account_id, actor, token_id, token_name, action, application_id, attributes_type,
                                  version, request_id, details)
        VALUES ($1::bigint, $2::text, $3::bigint, $4::text, $5::text, $6::bigint, $7::text, $8::integer, $9::text, $10::jsonb)
        """)

    static let pruneBatch = PGStatement(
        "audit_prune_batch",
        """
        DELETE FROM audit_events WHERE id IN (
            SELECT id FROM audit_events WHERE at < now() - make_interval(days => $1::integer) LIMIT $2::bigint)
        """)
}
