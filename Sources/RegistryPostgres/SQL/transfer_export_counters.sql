SELECT attributes_type, last_version FROM schema_version_counters WHERE application_id = $1::bigint ORDER BY attributes_type
