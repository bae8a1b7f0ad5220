INSERT INTO compatibility_policies AS p (application_id, attributes_type, mode, enforce, oldest_supported_version)
VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::integer)
ON CONFLICT (application_id, attributes_type)
DO UPDATE SET mode = EXCLUDED.mode, enforce = EXCLUDED.enforce,
              oldest_supported_version = EXCLUDED.oldest_supported_version, updated = now()
WHERE (p.mode, p.enforce, p.oldest_supported_version)
      IS DISTINCT FROM (EXCLUDED.mode, EXCLUDED.enforce, EXCLUDED.oldest_supported_version)
RETURNING 1
