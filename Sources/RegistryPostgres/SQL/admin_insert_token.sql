INSERT INTO api_tokens (account_id, token_hash, scope, name, application_ids, expires_at)
VALUES ($1::bigint, $2::bytea, $3::text, $4::text, string_to_array($5::text, ',')::bigint[],
        now() + make_interval(secs => $6::bigint))
RETURNING id, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
