SELECT c.attributes_type, c.last_version, p.version
FROM schema_version_counters AS c
    LEFT JOIN latest_pins AS p ON p.application_id = c.application_id AND p.attributes_type = c.attributes_type
WHERE c.application_id = $1::bigint
ORDER BY c.attributes_type
