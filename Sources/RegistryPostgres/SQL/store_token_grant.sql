WITH found AS (
    SELECT id, account_id, scope, name, application_ids, expires_at FROM api_tokens
    WHERE token_hash = $1::bytea AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
), touched AS (
    UPDATE api_tokens AS t SET last_used_on = (now() AT TIME ZONE 'UTC')::date FROM found
    WHERE t.id = found.id AND t.last_used_on IS DISTINCT FROM (now() AT TIME ZONE 'UTC')::date
)
SELECT found.id, found.account_id, found.scope, found.name, found.application_ids IS NOT NULL,
       limited.ids, limited.codes, extract(epoch FROM found.expires_at)::float8, to_char(found.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM found LEFT JOIN LATERAL (
    SELECT string_agg(a.id::text, ',' ORDER BY a.code) AS ids, json_agg(a.code ORDER BY a.code)::text AS codes
    FROM applications AS a WHERE a.id = ANY (found.application_ids)
) AS limited ON true
