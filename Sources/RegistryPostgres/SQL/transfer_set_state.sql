UPDATE schema_versions
SET state = $4::text, deprecation_message = $5::text, deprecation_sunset = $6::timestamptz, deprecated_at = $7::timestamptz,
    deprecated_by = $8::text, disabled_reason = $9::text, disabled_at = $10::timestamptz, disabled_by = $11::text
WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer AND deleted_at IS NULL
  AND (state, deprecation_message, deprecation_sunset, disabled_reason)
      IS DISTINCT FROM ($4::text, $5::text, $6::timestamptz, $9::text)
RETURNING 1
