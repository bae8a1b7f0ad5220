UPDATE idempotency_keys SET response_body = $4::text WHERE account_id = $1::bigint AND application_id = $2::bigint AND key = $3::text
