-- Stores a live version's field paths ($4, a JSON array of strings) for search, for a version
-- written without them (a publish before search existed, or one that passed none: the startup backfill).
WITH fields AS (
    INSERT INTO version_fields (application_id, attributes_type, version, path)
    SELECT $1::bigint, $2::text, $3::integer, paths.path
    FROM jsonb_array_elements_text($4::jsonb) AS paths (path)
    WHERE EXISTS (SELECT 1 FROM schema_versions
                  WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer
                    AND deleted_at IS NULL)
    ON CONFLICT DO NOTHING)
UPDATE schema_versions SET fields_indexed = true
WHERE application_id = $1::bigint AND attributes_type = $2::text AND version = $3::integer AND deleted_at IS NULL
