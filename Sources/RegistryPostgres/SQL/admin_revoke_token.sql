UPDATE api_tokens SET revoked_at = now() WHERE id = $1::bigint AND revoked_at IS NULL RETURNING account_id, name
