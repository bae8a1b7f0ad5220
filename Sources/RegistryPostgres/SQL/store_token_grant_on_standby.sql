SELECT found.id, found.account_id, found.scope, found.name, found.application_ids IS NOT NULL,
       limited.ids, limited.codes, extract(epoch FROM found.expires_at)::float8, to_char(found.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM api_tokens AS found LEFT JOIN LATERAL (
    SELECT string_agg(a.id::text, ',' ORDER BY a.code) AS ids, json_agg(a.code ORDER BY a.code)::text AS codes
    FROM applications AS a WHERE a.id = ANY (found.application_ids)
) AS limited ON true
WHERE found.token_hash = $1::bytea AND found.revoked_at IS NULL AND (found.expires_at IS NULL OR found.expires_at > now())
