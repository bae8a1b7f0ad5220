WITH s AS (
    DELETE FROM webhook_subscriptions
    WHERE application_id = $1::bigint AND id = $2::bigint
    RETURNING id)
SELECT registry_record_audit_event($3::bigint, $4::text, $5::bigint, $6::text, $7::text, $8::bigint, $9::text,
                                   $10::integer, $11::text, $12::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
