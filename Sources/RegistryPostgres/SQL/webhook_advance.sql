UPDATE webhook_subscriptions
SET position_xid = $3::xid8, position_id = $4::bigint,
    start_snapshot = CASE WHEN $3::xid8 < pg_snapshot_xmax(start_snapshot) THEN start_snapshot END,
    failures = 0, first_failure_at = NULL,
    next_attempt_at = to_timestamp($5::float8), lease_until = to_timestamp($5::float8 + $6::float8)
WHERE id = $1::bigint AND lease_holder = $2::text
RETURNING id
