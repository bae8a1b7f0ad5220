SELECT attributes_type, version, json_schema,
       to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), created_by,
       labels::text, release_notes, warnings::text
FROM schema_versions WHERE application_id = $1::bigint
ORDER BY attributes_type, version
