-- The feed's horizon places a transaction that ended while the horizon was being read.
--
-- The horizon skips a running transaction of the statement's snapshot when pg_stat_activity
-- shows it in another database. pg_stat_activity is read after the snapshot was taken, so a
-- transaction that ended in between is no longer listed anywhere and, unplaced, used to count:
-- under load a later statement could read an older horizon than an earlier one, and a reader
-- or a delivery worker told that an event was final would next be told it was not.
--
-- An ended transaction can be placed by what it left: once pg_xact_status says it ended, a
-- snapshot taken afterwards sees everything it committed, so when such a snapshot shows no
-- event of it in this database's feed, it never adds one and the horizon may pass it. That
-- lookup needs a snapshot newer than the caller's, which only a VOLATILE function takes, and
-- only under READ COMMITTED; under any other isolation the transaction still counts.
CREATE FUNCTION registry_feed_ended_without_events(transaction xid8) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed'
       OR pg_xact_status(transaction) IS NOT DISTINCT FROM 'in progress' THEN
        RETURN false;
    END IF;
    RETURN NOT EXISTS (SELECT FROM change_events WHERE xid = transaction);
END
$$;

-- The horizon of a given snapshot: the oldest transaction it lists as running that may still
-- add events to this database's feed, or its xmax when there is none. A running transaction
-- may be passed when pg_stat_activity or pg_prepared_xacts shows it in another database (a
-- transaction belongs to one database for its whole life), or when it has ended without an
-- event here. Those it cannot place (processes without a database) still count.
CREATE FUNCTION registry_feed_horizon_of(taken pg_snapshot) RETURNS xid8
    LANGUAGE sql STABLE AS $$
    WITH elsewhere AS (
        SELECT backend_xid::text::bigint AS low_bits
        FROM pg_stat_activity
        WHERE backend_xid IS NOT NULL AND datid IS NOT NULL
          AND datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
        UNION ALL
        SELECT transaction::text::bigint FROM pg_prepared_xacts WHERE database <> current_database()
    )
    SELECT coalesce(
        (SELECT min(running)
         FROM pg_snapshot_xip(taken) AS running
         -- xid8 → its 32-bit xid: running transactions are within 2^31 of each other, so the
         -- low 32 bits name one of them. CASE: the lookup runs only for the unplaced ones.
         WHERE CASE WHEN EXISTS (SELECT FROM elsewhere WHERE low_bits = (running::text::numeric % 4294967296)::bigint)
                    THEN false
                    ELSE NOT registry_feed_ended_without_events(running) END),
        pg_snapshot_xmax(taken))
$$;

-- Every event older than the result is visible to the calling statement's snapshot and final.
-- STABLE, so that pg_current_snapshot() is the calling statement's snapshot, the one that reads
-- the events; a VOLATILE function would take a newer snapshot and could move the horizon past
-- events the statement cannot see.
CREATE OR REPLACE FUNCTION registry_feed_horizon() RETURNS xid8
    LANGUAGE sql STABLE AS $$
    SELECT registry_feed_horizon_of(pg_current_snapshot())
$$;
