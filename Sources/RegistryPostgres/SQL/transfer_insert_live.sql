-- An imported live version with its field paths for search ($10, a JSON array of strings),
-- written by one command as a publish writes them, so the row is not rewritten to mark them.
WITH inserted AS (
    INSERT INTO schema_versions (application_id, attributes_type, version, json_schema, created, created_by, labels,
                                 release_notes, warnings, fields_indexed)
    VALUES ($1::bigint, $2::text, $3::integer, $4::text, $5::timestamptz, $6::text, $7::jsonb, $8::text, $9::jsonb, true)
    RETURNING version
)
INSERT INTO version_fields (application_id, attributes_type, version, path)
SELECT $1::bigint, $2::text, inserted.version, paths.path
FROM inserted CROSS JOIN jsonb_array_elements_text($10::jsonb) AS paths (path)
ON CONFLICT DO NOTHING
