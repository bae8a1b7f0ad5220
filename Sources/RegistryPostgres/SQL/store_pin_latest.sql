WITH target AS (
    SELECT application_id, attributes_type, version FROM schema_versions
    WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
      AND deleted_at IS NULL AND state <> 'disabled'
    FOR SHARE),
pinned AS (
    INSERT INTO latest_pins AS p (application_id, attributes_type, version, pinned_by)
    SELECT application_id, attributes_type, version, $4::text FROM target
    ON CONFLICT (application_id, attributes_type) DO UPDATE
    SET version = EXCLUDED.version, pinned_at = now(), pinned_by = EXCLUDED.pinned_by
    RETURNING version)
SELECT version,
       registry_record_audit_event($5::bigint, $6::text, $7::bigint, $8::text, $9::text, $10::bigint, $11::text,
                                   $12::integer, $13::text, $14::jsonb)
FROM pinned
