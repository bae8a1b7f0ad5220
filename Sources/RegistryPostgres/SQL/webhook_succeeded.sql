UPDATE webhook_subscriptions
SET failures = 0, first_failure_at = NULL, lease_until = to_timestamp($3::float8 + $4::float8)
WHERE id = $1::bigint AND lease_holder = $2::text
RETURNING id
