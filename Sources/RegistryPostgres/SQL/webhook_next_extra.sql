SELECT x.id, x.kind, e.xid::text, e.id, e.kind, e.attributes_type, e.version::text,
       to_char(coalesce(e.at, x.created) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM webhook_extra_deliveries AS x
LEFT JOIN change_events AS e ON e.xid = x.event_xid AND e.id = x.event_id
WHERE x.subscription_id = $1::bigint
ORDER BY x.id
LIMIT 1
