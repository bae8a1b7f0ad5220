WITH deleted AS (
    UPDATE schema_versions SET deleted_at = now(), json_schema = NULL
    WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
      AND deleted_at IS NULL
    RETURNING version)
SELECT version,
       registry_record_audit_event($4::bigint, $5::text, $6::bigint, $7::text, $8::text, $9::bigint, $10::text,
                                   $11::integer, $12::text, $13::jsonb)
FROM deleted
