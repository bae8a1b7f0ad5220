WITH s AS (
    INSERT INTO webhook_extra_deliveries (subscription_id, kind, event_xid, event_id)
    SELECT w.id, 'redeliver', e.xid, e.id
    FROM webhook_subscriptions AS w
    JOIN change_events AS e ON e.application_id = w.application_id AND e.xid = $3::xid8 AND e.id = $4::bigint
    WHERE w.application_id = $1::bigint AND w.id = $2::bigint
    RETURNING subscription_id AS id)
SELECT registry_record_audit_event($5::bigint, $6::text, $7::bigint, $8::text, $9::text, $10::bigint, $11::text,
                                   $12::integer, $13::text, $14::jsonb || jsonb_build_object('webhook_id', s.id))
FROM s
