SELECT t.id, t.account_id, to_char(t.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(t.revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), t.scope, t.name,
       (SELECT json_agg(a.code ORDER BY a.code)::text FROM applications AS a WHERE a.id = ANY (t.application_ids)),
       to_char(t.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(t.last_used_on, 'YYYY-MM-DD')
FROM api_tokens AS t
WHERE $1::bigint IS NULL OR t.account_id = $1::bigint
ORDER BY t.id
