WITH horizon AS MATERIALIZED (SELECT registry_feed_horizon() AS xid),
final AS (
    SELECT events.xid, events.id, application_id, kind, attributes_type, version
    FROM horizon, change_events AS events
    WHERE (events.xid, events.id) > ($1::xid8, $2::bigint) AND events.xid < horizon.xid
    ORDER BY events.xid, events.id
    LIMIT $4::bigint),
early AS (
    SELECT events.xid, events.id, application_id, kind, attributes_type, version
    FROM horizon, change_events AS events
    WHERE events.id > $3::bigint AND events.xid >= horizon.xid
    ORDER BY events.id
    LIMIT $4::bigint)
SELECT 'final', xid::text, id, application_id, kind, attributes_type, version::text FROM final
UNION ALL
SELECT 'early', xid::text, id, application_id, kind, attributes_type, version::text FROM early
UNION ALL
SELECT CASE WHEN EXISTS (SELECT FROM change_events AS events WHERE events.xid >= horizon.xid) THEN 'held' ELSE 'horizon' END,
       xid::text, NULL, NULL, NULL, NULL, NULL
FROM horizon
