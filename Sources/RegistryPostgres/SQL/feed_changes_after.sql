WITH horizon AS MATERIALIZED (SELECT registry_feed_horizon() AS xid)
SELECT events.xid::text, id, kind, attributes_type, version::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       horizon.xid::text
FROM horizon, change_events AS events
WHERE application_id = $1::bigint AND (events.xid, id) > ($2::xid8, $3::bigint)
ORDER BY events.xid, id
LIMIT $4::bigint
