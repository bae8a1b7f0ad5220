WITH s AS (
    UPDATE webhook_subscriptions AS w
    SET url = coalesce($3::text, url),
        events = coalesce(string_to_array($4::text, ','), events),
        type_prefix = coalesce($5::text, type_prefix),
        description = coalesce($6::text, description),
        enabled = coalesce($7::boolean, enabled),
        disabled_reason = CASE WHEN $7::boolean THEN NULL ELSE disabled_reason END,
        failures = CASE WHEN $7::boolean AND NOT w.enabled THEN 0 ELSE failures END,
        first_failure_at = CASE WHEN $7::boolean AND NOT w.enabled THEN NULL ELSE first_failure_at END,
        next_attempt_at = CASE WHEN $7::boolean AND NOT w.enabled THEN now() ELSE next_attempt_at END,
        updated = now()
    WHERE w.application_id = $1::bigint AND w.id = $2::bigint
    RETURNING *)
SELECT s.id, s.application_id, s.url, array_to_string(s.events, ','), s.type_prefix, s.description, s.enabled, s.disabled_reason,
       CASE WHEN s.previous_until > now() THEN to_char(s.previous_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END,
       s.failures, to_char(s.next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(s.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(s.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       registry_record_audit_event($8::bigint, $9::text, $10::bigint, $11::text, $12::text, $13::bigint, $14::text,
                                   $15::integer, $16::text, $17::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
