INSERT INTO compatibility_policies AS p (application_id, attributes_type, mode, enforce, oldest_supported_version)
VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::integer)
ON CONFLICT (application_id, attributes_type) DO UPDATE
SET mode = EXCLUDED.mode, enforce = EXCLUDED.enforce,
    oldest_supported_version = EXCLUDED.oldest_supported_version, updated = now()
RETURNING mode, enforce, oldest_supported_version,
          CASE WHEN attributes_type = '' THEN 'application' ELSE 'type' END, to_char(updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
