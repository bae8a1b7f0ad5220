-- Stores the warnings ($4, a JSON array) a live version's publish answered. No indexed column
-- changes, so the new row version can stay on its page (a HOT update).
UPDATE schema_versions SET warnings = $4::jsonb
WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer AND deleted_at IS NULL
