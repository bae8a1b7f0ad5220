DELETE FROM webhook_attempts
WHERE subscription_id = $1::bigint
  AND id <= (SELECT id FROM webhook_attempts WHERE subscription_id = $1::bigint ORDER BY id DESC OFFSET $2::bigint LIMIT 1)
