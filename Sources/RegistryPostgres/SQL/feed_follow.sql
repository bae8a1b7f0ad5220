WITH taken AS MATERIALIZED (SELECT pg_current_snapshot() AS now),
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
SELECT now::text, NULL, NULL, NULL, NULL, NULL FROM taken
