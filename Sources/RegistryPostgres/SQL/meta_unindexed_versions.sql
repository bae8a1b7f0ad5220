-- Live versions whose field paths are not stored yet (published before paths were), a batch at
-- a time for the startup backfill.
SELECT application_id, attributes_type, version, json_schema FROM schema_versions
WHERE deleted_at IS NULL AND NOT fields_indexed
ORDER BY application_id, attributes_type, version
LIMIT $1::bigint
