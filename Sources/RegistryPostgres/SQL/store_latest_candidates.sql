SELECT
    (SELECT p.version FROM latest_pins AS p
         JOIN schema_versions AS v
             ON v.application_id = p.application_id AND v.attributes_type = p.attributes_type AND v.version = p.version
     WHERE p.application_id = $1::bigint AND p.attributes_type = $2::text
       AND v.deleted_at IS NULL AND v.state <> 'disabled'),
    (SELECT version FROM schema_versions
     WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL AND state = 'active'
     ORDER BY version DESC LIMIT 1),
    (SELECT version FROM schema_versions
     WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL AND state = 'deprecated'
     ORDER BY version DESC LIMIT 1)
