SELECT attributes_type, version, json_schema,
       to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), created_by,
       state, deprecation_message, to_char(deprecation_sunset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       to_char(deprecated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), deprecated_by,
       disabled_reason, to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), disabled_by,
       labels::text, release_notes, warnings::text
FROM schema_versions WHERE application_id = $1::bigint
ORDER BY attributes_type, version
