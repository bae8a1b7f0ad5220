SELECT version, json_schema FROM schema_versions WHERE application_id = $1::bigint AND attributes_type = $2::text
