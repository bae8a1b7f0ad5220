UPDATE webhook_subscriptions SET lease_holder = NULL, lease_until = NULL
WHERE id = $1::bigint AND lease_holder = $2::text
