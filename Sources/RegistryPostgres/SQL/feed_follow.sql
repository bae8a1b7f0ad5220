WITH taken AS MATERIALIZED (
    SELECT pg_current_snapshot() AS now,
           (CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_insert_lsn() - '0/0'::pg_lsn END)::bigint AS lsn),
committed AS (
    (SELECT id, application_id, kind, attributes_type, version FROM change_events
     WHERE xid >= pg_snapshot_xmax($1::pg_snapshot)
     ORDER BY xid, id
     LIMIT $2::bigint)
    UNION ALL
    (SELECT id, application_id, kind, attributes_type, version FROM change_events
     WHERE xid = ANY (ARRAY(SELECT pg_snapshot_xip($1::pg_snapshot)))
     ORDER BY xid, id
     LIMIT $2::bigint))
SELECT NULL, id, application_id, kind, attributes_type, version::text FROM committed
UNION ALL
SELECT now::text, lsn, NULL, NULL, NULL, NULL FROM taken
