DELETE FROM idempotency_keys WHERE created <= now() - interval '24 hours'
