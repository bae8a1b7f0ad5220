INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
VALUES ($1::bigint, $2::text, $3::integer)
ON CONFLICT (application_id, attributes_type)
DO UPDATE SET last_version = EXCLUDED.last_version WHERE c.last_version < EXCLUDED.last_version
RETURNING last_version
