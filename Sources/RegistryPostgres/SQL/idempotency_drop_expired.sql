DELETE FROM idempotency_keys WHERE account_id = $1::bigint AND key = $2::text AND created <= now() - interval '24 hours'
