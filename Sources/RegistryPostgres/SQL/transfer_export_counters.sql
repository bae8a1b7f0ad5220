SELECT c.attributes_type, c.last_version, p.version, m.description, m.owner, m.labels::text, m.links::text,
       to_char(m.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM schema_version_counters AS c
    LEFT JOIN latest_pins AS p ON p.application_id = c.application_id AND p.attributes_type = c.attributes_type
    LEFT JOIN type_metadata AS m ON m.application_id = c.application_id AND m.attributes_type = c.attributes_type
WHERE c.application_id = $1::bigint
ORDER BY c.attributes_type
