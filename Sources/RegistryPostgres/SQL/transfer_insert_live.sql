INSERT INTO schema_versions (application_id, attributes_type, version, json_schema, created, created_by, labels, release_notes,
                             warnings)
VALUES ($1::bigint, $2::text, $3::integer, $4::text, $5::timestamptz, $6::text, $7::jsonb, $8::text, $9::jsonb)
