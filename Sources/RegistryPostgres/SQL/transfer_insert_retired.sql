INSERT INTO schema_versions (application_id, attributes_type, version, json_schema, deleted_at)
VALUES ($1::bigint, $2::text, $3::integer, NULL, now())
