INSERT INTO idempotency_keys (account_id, application_id, key, request_sha256, response_body)
VALUES ($1::bigint, $2::bigint, $3::text, $4::bytea, '')
ON CONFLICT (account_id, application_id, key) DO NOTHING
RETURNING 1
