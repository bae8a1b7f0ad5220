INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
VALUES ($1::bigint, $2::text, 1)
ON CONFLICT (application_id, attributes_type) DO UPDATE SET last_version = c.last_version
RETURNING xmax = 0
