-- Stores what a live version's publish found: its field paths ($5, a JSON array of strings) for
-- search and, unless $4 is NULL (the startup backfill), the warnings the publish answered.
WITH fields AS (
    INSERT INTO version_fields (application_id, attributes_type, version, path)
    SELECT $1::bigint, $2::text, $3::integer, paths.path
    FROM jsonb_array_elements_text($5::jsonb) AS paths (path)
    WHERE EXISTS (SELECT 1 FROM schema_versions
                  WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
                    AND deleted_at IS NULL)
    ON CONFLICT DO NOTHING)
UPDATE schema_versions SET warnings = COALESCE($4::jsonb, warnings), fields_indexed = true
WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer AND deleted_at IS NULL
