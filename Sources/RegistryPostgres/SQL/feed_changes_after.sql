SELECT xid::text, id, kind, attributes_type, version::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       pg_snapshot_xmin(pg_current_snapshot())::text
FROM change_events
WHERE application_id = $1::bigint AND (xid, id) > ($2::xid8, $3::bigint)
ORDER BY xid, id
LIMIT $4::bigint
