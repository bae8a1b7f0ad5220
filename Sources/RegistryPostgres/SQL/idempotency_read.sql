SELECT request_sha256, response_body FROM idempotency_keys
WHERE account_id = $1::bigint AND application_id = $2::bigint AND key = $3::text AND created > now() - interval '24 hours'
