UPDATE webhook_subscriptions
SET failures = failures + 1, next_attempt_at = to_timestamp($3::float8), lease_holder = NULL, lease_until = NULL
WHERE id = $1::bigint AND lease_holder = $2::text
RETURNING id
