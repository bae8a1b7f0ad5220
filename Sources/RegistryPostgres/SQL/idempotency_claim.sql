INSERT INTO idempotency_keys (account_id, key, request_sha256, response_body)
VALUES ($1::bigint, $2::text, $3::bytea, '')
ON CONFLICT (account_id, key) DO NOTHING
RETURNING 1
