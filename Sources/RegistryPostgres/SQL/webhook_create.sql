WITH s AS (
    INSERT INTO webhook_subscriptions (application_id, url, events, type_prefix, description, enabled, secret, position_xid,
                                       start_snapshot)
    VALUES ($1::bigint, $2::text, string_to_array($3::text, ','), $4::text, $5::text, $6::boolean, $7::text,
            registry_feed_horizon(), pg_current_snapshot())
    RETURNING *)
SELECT s.id, s.application_id, s.url, array_to_string(s.events, ','), s.type_prefix, s.description, s.enabled, s.disabled_reason,
       CASE WHEN s.previous_until > now() THEN to_char(s.previous_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
       s.failures, to_char(s.next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(s.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(s.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       registry_record_audit_event($8::bigint, $9::text, $10::bigint, $11::text, $12::text, $13::bigint, $14::text,
                                   $15::integer, $16::text, $17::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
