-- One row when the type has a live version, with NULL metadata columns when none was ever set.
SELECT m.description, m.owner, m.labels::text, m.links::text,
       to_char(m.updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM schema_version_counters AS c
    LEFT JOIN type_metadata AS m ON m.application_id = c.application_id AND m.attributes_type = c.attributes_type
WHERE c.application_id = $1::bigint AND c.attributes_type = $2::text
  AND EXISTS (SELECT 1 FROM schema_versions AS v
              WHERE v.application_id = c.application_id AND v.attributes_type = c.attributes_type AND v.deleted_at IS NULL)
