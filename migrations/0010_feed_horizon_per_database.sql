-- The change feed's horizon: the oldest transaction id that may still add events to this
-- database's feed. A reader hands out only events older than it.
--
-- pg_snapshot_xmin(pg_current_snapshot()) is the oldest transaction still running in the whole
-- cluster, so a long transaction in another database held every reader back. A transaction
-- belongs to one database for its whole life and cannot write this database's change_events,
-- so the horizon skips the running transactions that pg_stat_activity and pg_prepared_xacts
-- show in another database (pg_stat_activity shows every session's backend_xid to every role).
-- Those it cannot place (processes without a database) still count: the horizon is later than
-- the cluster-wide one only where that is proven safe. A transaction newer than the snapshot's
-- xmax is not listed at all; the horizon never passes xmax.
--
-- Every event older than the result is visible to the caller's snapshot and final: its
-- transaction was either finished when the snapshot was taken (not in xip, below xmax) or runs
-- in another database. STABLE, so that pg_current_snapshot() is the calling statement's
-- snapshot, the one that reads the events; a VOLATILE function would take a newer snapshot
-- and could move the horizon past events the statement cannot see.
CREATE FUNCTION registry_feed_horizon() RETURNS xid8
    LANGUAGE sql STABLE AS $$
    WITH snapshot AS (SELECT pg_current_snapshot() AS taken),
    elsewhere AS (
        SELECT backend_xid::text::bigint AS low_bits
        FROM pg_stat_activity
        WHERE backend_xid IS NOT NULL AND datid IS NOT NULL
          AND datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
        UNION ALL
        SELECT transaction::text::bigint FROM pg_prepared_xacts WHERE database <> current_database()
    )
    SELECT coalesce(
        (SELECT min(running)
         FROM snapshot, pg_snapshot_xip(snapshot.taken) AS running
         -- xid8 → its 32-bit xid: running transactions are within 2^31 of each other, so the
         -- low 32 bits name one of them.
         WHERE NOT EXISTS (
             SELECT FROM elsewhere WHERE low_bits = (running::text::numeric % 4294967296)::bigint)),
        (SELECT pg_snapshot_xmax(taken) FROM snapshot))
$$;
