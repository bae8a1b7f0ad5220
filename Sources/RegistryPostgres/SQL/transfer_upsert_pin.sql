INSERT INTO latest_pins AS p (application_id, attributes_type, version, pinned_by)
VALUES ($1::bigint, $2::text, $3::integer, 'cli')
ON CONFLICT (application_id, attributes_type)
DO UPDATE SET version = EXCLUDED.version, pinned_at = now(), pinned_by = EXCLUDED.pinned_by
WHERE p.version IS DISTINCT FROM EXCLUDED.version
RETURNING 1
