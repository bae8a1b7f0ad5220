WITH written AS (
    INSERT INTO compatibility_policies AS p (application_id, attributes_type, mode, enforce, oldest_supported_version)
    VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::integer)
    ON CONFLICT (application_id, attributes_type) DO UPDATE
    SET mode = EXCLUDED.mode, enforce = EXCLUDED.enforce,
        oldest_supported_version = EXCLUDED.oldest_supported_version, updated = now()
    RETURNING mode, enforce, oldest_supported_version,
              CASE WHEN attributes_type = '' THEN 'application' ELSE 'type' END AS source,
              to_char(updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated)
SELECT mode, enforce, oldest_supported_version, source, updated,
       registry_record_audit_event($6::bigint, $7::text, $8::bigint, $9::text, $10::text, $11::bigint, $12::text,
                                   $13::integer, $14::text, $15::jsonb)
FROM written
