import Foundation
import RegistryPostgres

/// Holds a type's version counter row in a transaction of its own, so that a publish of that
/// type stops inside its transaction, waiting for the lock, until `release`: a request held on
/// the database at a known point.
public final class HeldCounter {
    private let holder: PGConnection
    private let watcher: PGConnection

    /// The type must have been published once (its counter row exists).
    public init(databaseURL: String, attributesType: String) throws {
        holder = try PGConnection.connect(PostgresConfig(databaseURL: databaseURL))
        watcher = try PGConnection.connect(PostgresConfig(databaseURL: databaseURL))
        try holder.simpleQuery("BEGIN")
        try holder.execute(
            PGStatement("test_hold_counter", "SELECT 1 FROM schema_version_counters WHERE attributes_type = $1::text FOR UPDATE"),
            [attributesType])
    }

    /// The backend of a publish waiting for the held row, once one waits (within 10 s), else nil.
    /// Watched from another session: inside a transaction, pg_stat_activity is a snapshot.
    public func waitingPublish() throws -> Int64? {
        let waiting = PGStatement(
            "test_waiting_publish",
            """
            SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%schema_version_counters%'
            """)
        for _ in 0..<1000 {
            if let pid = try watcher.execute(waiting).rows.first?.int64(0) { return pid }
            usleep(10_000)
        }
        return nil
    }

    /// Ends the backend `pid` (the waiting publish's session).
    public func terminate(_ pid: Int64) throws {
        try holder.execute(PGStatement("test_terminate", "SELECT pg_terminate_backend($1::integer)"), [pid])
    }

    /// Lets the held publish go on.
    public func release() throws {
        try holder.simpleQuery("ROLLBACK")
    }
}
