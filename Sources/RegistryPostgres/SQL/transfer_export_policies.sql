SELECT attributes_type, mode, enforce, oldest_supported_version FROM compatibility_policies
WHERE application_id = $1::bigint ORDER BY attributes_type
