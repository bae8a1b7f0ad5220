SELECT e.id, to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), e.account_id, e.actor, e.token_id,
e.token_name, e.action, a.code, e.attributes_type, e.version, e.request_id, e.details::text FROM audit_events AS e LEFT JOIN applications AS a ON a.id = e.application_id
WHERE e.application_id = $1::bigint AND ($2::text IS NULL OR e.attributes_type = $2::text) AND ($3::text IS NULL OR e.action = $3::text)
AND ($4::float8 IS NULL OR e.at >= to_timestamp($4::float8)) AND ($5::float8 IS NULL OR e.at < to_timestamp($5::float8)) AND ($6::bigint IS NULL OR e.id < $6::bigint)
ORDER BY e.id DESC LIMIT $7::bigint
