WITH changed AS (
    UPDATE schema_versions
    SET state = $4::text,
        deprecation_message = CASE WHEN $4::text = 'deprecated' THEN $5::text END,
        deprecation_sunset = CASE WHEN $4::text = 'deprecated' THEN $6::timestamptz END,
        deprecated_at = CASE WHEN $4::text = 'deprecated' THEN now() END,
        deprecated_by = CASE WHEN $4::text = 'deprecated' THEN $7::text END,
        disabled_reason = CASE WHEN $4::text = 'disabled' THEN $5::text END,
        disabled_at = CASE WHEN $4::text = 'disabled' THEN now() END,
        disabled_by = CASE WHEN $4::text = 'disabled' THEN $7::text END
    WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
      AND deleted_at IS NULL
    RETURNING *)
SELECT json_schema, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), schema_sha256, created_by,
       state, deprecation_message, to_char(deprecation_sunset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(deprecated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), floor(extract(epoch FROM deprecated_at))::bigint,
       to_char(deprecation_sunset AT TIME ZONE 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"'), deprecated_by,
       disabled_reason, to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), disabled_by,
       labels::text, release_notes, warnings::text,
       registry_record_audit_event($8::bigint, $9::text, $10::bigint, $11::text, $12::text, $13::bigint, $14::text,
                                   $15::integer, $16::text, $17::jsonb)
FROM changed
