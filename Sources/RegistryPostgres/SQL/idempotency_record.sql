UPDATE idempotency_keys SET response_body = $3::text WHERE account_id = $1::bigint AND key = $2::text
