SELECT id, secret, previous_secret
FROM webhook_subscriptions
WHERE id > $1::bigint
ORDER BY id
LIMIT $2::bigint
