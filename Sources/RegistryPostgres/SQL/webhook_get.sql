SELECT s.id, s.application_id, s.url, array_to_string(s.events, ','), s.type_prefix, s.description, s.enabled, s.disabled_reason,
       CASE WHEN s.previous_until > now() THEN to_char(s.previous_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
       s.failures, to_char(s.next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(s.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(s.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM webhook_subscriptions AS s
WHERE s.application_id = $1::bigint AND s.id = $2::bigint
