SELECT attributes_type, version, json_schema, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), created_by,
       state, deprecation_message, to_char(deprecation_sunset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(deprecated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), floor(extract(epoch FROM deprecated_at))::bigint,
       to_char(deprecation_sunset AT TIME ZONE 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"'), deprecated_by,
       disabled_reason, to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), disabled_by,
       labels::text, release_notes, warnings::text
FROM schema_versions
WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL AND ($4::boolean OR state <> 'disabled')
ORDER BY attributes_type, version DESC
LIMIT $3::bigint
