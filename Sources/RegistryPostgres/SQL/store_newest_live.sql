SELECT version, json_schema, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), content_sha256, labels::text, release_notes, warnings::text FROM schema_versions
WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL
ORDER BY version DESC LIMIT 1
