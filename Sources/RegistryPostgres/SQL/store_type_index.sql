SELECT c.attributes_type, live.versions, newest.version, to_char(newest.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       COALESCE(own.mode, app.mode, 'backward_transitive'),
       COALESCE(own.enforce, app.enforce, 'warn'),
       COALESCE(own.oldest_supported_version, app.oldest_supported_version, 1),
       pin.version, live.deprecated, live.disabled, meta.description, meta.owner, meta.labels::text
FROM schema_version_counters AS c
    CROSS JOIN LATERAL (
        SELECT version, created FROM schema_versions AS v
        WHERE v.application_id = c.application_id AND v.attributes_type = c.attributes_type
          AND v.deleted_at IS NULL
        ORDER BY v.version DESC LIMIT 1
    ) AS newest
    CROSS JOIN LATERAL (
        SELECT count(*) AS versions, count(*) FILTER (WHERE v.state = 'deprecated') AS deprecated,
               count(*) FILTER (WHERE v.state = 'disabled') AS disabled
        FROM schema_versions AS v
        WHERE v.application_id = c.application_id AND v.attributes_type = c.attributes_type
          AND v.deleted_at IS NULL
    ) AS live
    LEFT JOIN latest_pins AS pin
        ON pin.application_id = c.application_id AND pin.attributes_type = c.attributes_type
    LEFT JOIN compatibility_policies AS own
        ON own.application_id = c.application_id AND own.attributes_type = c.attributes_type
    LEFT JOIN compatibility_policies AS app
        ON app.application_id = c.application_id AND app.attributes_type = ''
    LEFT JOIN type_metadata AS meta
        ON meta.application_id = c.application_id AND meta.attributes_type = c.attributes_type
WHERE c.application_id = $1::bigint
  AND ($2::text IS NULL OR c.attributes_type > $2::text)
  AND ($3::text IS NULL OR c.attributes_type >= $3::text)
  AND ($4::text IS NULL OR c.attributes_type < $4::text)
ORDER BY c.attributes_type
LIMIT $5::bigint
