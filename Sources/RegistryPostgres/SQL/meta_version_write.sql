-- Replaces a live version's labels and release notes and records its audit event in one
-- statement. No row (and no event) when the version is unknown or deleted. The columns are
-- those of store_get_version.
WITH written AS (
    UPDATE schema_versions SET labels = $4::jsonb, release_notes = $5::text
    WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer AND deleted_at IS NULL
    RETURNING *)
SELECT json_schema, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), schema_sha256, created_by,
       state, deprecation_message, to_char(deprecation_sunset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(deprecated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), floor(extract(epoch FROM deprecated_at))::bigint,
       to_char(deprecation_sunset AT TIME ZONE 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"'), deprecated_by,
       disabled_reason, to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), disabled_by,
       labels::text, release_notes, warnings::text,
       registry_record_audit_event($6::bigint, $7::text, $8::bigint, $9::text, $10::text, $11::bigint, $12::text,
                                   $13::integer, $14::text, $15::jsonb)
FROM written
