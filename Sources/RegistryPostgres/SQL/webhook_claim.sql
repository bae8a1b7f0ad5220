UPDATE webhook_subscriptions AS w
SET lease_holder = $1::text, lease_until = to_timestamp($2::float8 + $3::float8)
FROM applications AS a
WHERE a.id = w.application_id AND w.id = (
    SELECT c.id
    FROM webhook_subscriptions AS c
    WHERE c.enabled AND c.next_attempt_at <= to_timestamp($2::float8)
      AND (c.lease_until IS NULL OR c.lease_until <= to_timestamp($2::float8))
      AND (EXISTS (SELECT FROM webhook_extra_deliveries AS x WHERE x.subscription_id = c.id)
           OR EXISTS (SELECT FROM change_events AS e
                      WHERE e.application_id = c.application_id AND (e.xid, e.id) > (c.position_xid, c.position_id)
                        AND e.xid < registry_feed_horizon()))
    ORDER BY c.next_attempt_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED)
RETURNING w.id, w.application_id, a.account_id, a.code, w.url, array_to_string(w.events, ','), w.type_prefix, w.secret,
          CASE WHEN w.previous_until > to_timestamp($2::float8) THEN w.previous_secret END, w.failures,
          extract(epoch FROM w.first_failure_at)::float8::text, w.position_xid::text, w.position_id, a.name,
          to_char(a.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), w.start_snapshot::text
