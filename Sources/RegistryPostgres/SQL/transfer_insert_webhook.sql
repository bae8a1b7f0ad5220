INSERT INTO webhook_subscriptions (application_id, url, events, type_prefix, description, enabled, disabled_reason, secret,
                                   position_xid, start_snapshot)
SELECT $1::bigint, $2::text, string_to_array($3::text, ','), $4::text, $5::text, false,
       'imported: rotate the secret and enable it', $6::text, registry_feed_horizon(),
       pg_current_snapshot()
WHERE NOT EXISTS (
    SELECT FROM webhook_subscriptions
    WHERE application_id = $1::bigint AND url = $2::text AND events = string_to_array($3::text, ',') AND type_prefix = $4::text)
RETURNING id
