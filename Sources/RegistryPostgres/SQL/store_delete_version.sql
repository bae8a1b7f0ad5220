UPDATE schema_versions SET deleted_at = now(), json_schema = NULL
WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
  AND deleted_at IS NULL
RETURNING version
