SELECT a.id, to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), a.message_id, a.event_type, a.status,
       a.succeeded, a.latency_ms, a.error, a.response_head
FROM webhook_attempts AS a
JOIN webhook_subscriptions AS s ON s.id = a.subscription_id
WHERE s.application_id = $1::bigint AND s.id = $2::bigint AND ($3::bigint IS NULL OR a.id < $3::bigint)
ORDER BY a.id DESC
LIMIT $4::bigint
