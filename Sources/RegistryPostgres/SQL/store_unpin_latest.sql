WITH removed AS (
    DELETE FROM latest_pins
    WHERE application_id = $1::bigint AND attributes_type = $2::text
    RETURNING version)
SELECT version,
       registry_record_audit_event($3::bigint, $4::text, $5::bigint, $6::text, $7::text, $8::bigint, $9::text,
                                   $10::integer, $11::text, $12::jsonb)
FROM removed
