WITH s AS (
    UPDATE webhook_subscriptions
    SET enabled = false, disabled_reason = $3::text, failures = failures + 1, lease_holder = NULL, lease_until = NULL,
        updated = now()
    WHERE id = $1::bigint AND lease_holder = $2::text
    RETURNING id)
SELECT registry_record_audit_event($4::bigint, $5::text, $6::bigint, $7::text, $8::text, $9::bigint, $10::text,
                                   $11::integer, $12::text, $13::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
