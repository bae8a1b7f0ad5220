WITH s AS (
    UPDATE webhook_subscriptions
    SET previous_secret = secret, previous_until = now() + make_interval(secs => $4::integer), secret = $3::text,
        updated = now()
    WHERE application_id = $1::bigint AND id = $2::bigint
    RETURNING *)
SELECT s.id, s.application_id, s.url, array_to_string(s.events, ','), s.type_prefix, s.description, s.enabled, s.disabled_reason,
       CASE WHEN s.previous_until > now() THEN to_char(s.previous_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
       s.failures, to_char(s.next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(s.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(s.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       registry_record_audit_event($5::bigint, $6::text, $7::bigint, $8::text, $9::text, $10::bigint, $11::text,
                                   $12::integer, $13::text, $14::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
