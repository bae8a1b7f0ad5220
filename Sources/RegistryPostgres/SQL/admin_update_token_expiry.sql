UPDATE api_tokens SET expires_at = now() + make_interval(secs => $2::bigint)
WHERE id = $1::bigint AND revoked_at IS NULL
RETURNING account_id, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
