INSERT INTO webhook_extra_deliveries (subscription_id, kind)
SELECT id, 'test' FROM webhook_subscriptions WHERE application_id = $1::bigint AND id = $2::bigint
RETURNING id
