WITH s AS (
    UPDATE webhook_subscriptions
    SET position_xid = least(position_xid, $3::xid8),
        position_id = CASE WHEN ($3::xid8, $4::bigint) < (position_xid, position_id) THEN $4::bigint ELSE position_id END,
        start_snapshot = CASE WHEN ($3::xid8, $4::bigint) < (position_xid, position_id) THEN NULL ELSE start_snapshot END,
        failures = 0, first_failure_at = NULL, next_attempt_at = now(), updated = now()
    WHERE application_id = $1::bigint AND id = $2::bigint
    RETURNING id)
SELECT registry_record_audit_event($5::bigint, $6::text, $7::bigint, $8::text, $9::text, $10::bigint, $11::text,
                                   $12::integer, $13::text, $14::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
