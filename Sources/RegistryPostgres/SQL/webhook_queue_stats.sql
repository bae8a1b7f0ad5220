WITH horizon AS MATERIALIZED (SELECT registry_feed_horizon() AS xid)
SELECT count(e.id) + (SELECT count(*) FROM webhook_extra_deliveries AS x
                      JOIN webhook_subscriptions AS w ON w.id = x.subscription_id AND w.enabled),
       coalesce(extract(epoch FROM now() - min(e.at)), 0)::float8::text
FROM horizon, webhook_subscriptions AS s
JOIN change_events AS e ON e.application_id = s.application_id AND (e.xid, e.id) > (s.position_xid, s.position_id)
WHERE s.enabled AND e.xid < horizon.xid
