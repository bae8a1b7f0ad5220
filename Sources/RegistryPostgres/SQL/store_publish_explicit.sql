-- policy: the effective compatibility policy of the type, its own row, else the application's
-- (attributes_type ''), else the built-in default.
WITH RECURSIVE policy (mode, enforce, floor, source, updated) AS (
    SELECT mode, enforce, floor, source, updated FROM (
        SELECT mode, enforce, oldest_supported_version AS floor,
               CASE WHEN attributes_type = '' THEN 'application' ELSE 'type' END AS source,
               to_char(updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated,
               CASE WHEN attributes_type = '' THEN 1 ELSE 0 END AS rank
        FROM compatibility_policies
        WHERE application_id = $1::bigint AND attributes_type IN ($2::text, '')
        UNION ALL
        SELECT 'backward_transitive', 'warn', 1, 'default', NULL, 2
    ) AS candidates
    ORDER BY rank LIMIT 1
), counter AS (
    INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
    SELECT $1::bigint, $2::text, $3::integer FROM policy WHERE ($7::boolean OR policy.enforce = 'warn' OR policy.mode = 'none')
    ON CONFLICT (application_id, attributes_type)
    DO UPDATE SET last_version = GREATEST(c.last_version, EXCLUDED.last_version)
    RETURNING last_version
), inserted AS (
    INSERT INTO schema_versions (
        application_id, attributes_type, version, json_schema, created_by_token_id, created_by, content_sha256,
        labels, release_notes, fields_indexed)
    SELECT $1::bigint, $2::text, $3::integer, $4::text, $5::bigint, $6::text, $9::bytea, $10::jsonb, $11::text, $12::jsonb IS NOT NULL FROM counter
    RETURNING version, created, schema_sha256
-- fields: the version's field paths for search ($12, a JSON array of strings), written with it:
-- NULL leaves them to the startup backfill. version_fields' key refers to the row inserted
-- above, which the key's check (run at the end of the statement) sees.
), fields AS (
    INSERT INTO version_fields (application_id, attributes_type, version, path)
    SELECT $1::bigint, $2::text, inserted.version, paths.path
    FROM inserted CROSS JOIN jsonb_array_elements_text($12::jsonb) AS paths (path)
    ON CONFLICT DO NOTHING
-- distinct_hashes: every distinct schema_sha256 among the type's live versions, by a loose index
-- scan of schema_versions_live_content: each step descends the index to the first hash above the
-- previous one, one descent per distinct text (DISTINCT ON would read every live version). The
-- last row is NULL.
), distinct_hashes (schema_sha256) AS (
    (SELECT schema_sha256 FROM schema_versions
     WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL
     ORDER BY schema_sha256 LIMIT 1)
    UNION ALL
    SELECT (SELECT next.schema_sha256 FROM schema_versions AS next
            WHERE next.application_id = $1::bigint AND next.attributes_type = $2::text
              AND next.deleted_at IS NULL AND next.schema_sha256 > previous.schema_sha256
            ORDER BY next.schema_sha256 LIMIT 1)
    FROM distinct_hashes AS previous
    WHERE previous.schema_sha256 IS NOT NULL
-- newest: the newest live version below the bound, in every mode (the version-jump warning
-- reads it, and under none the caller compares nothing with it). compared (under
-- backward_transitive only): each distinct hash but the excluded one at its oldest live version
-- from the floor up and below the bound, newest first, one more than the limit so the caller knows
-- when it stopped. Only versions and hashes: the texts are read afterwards, as needed.
-- A disabled version is withdrawn: it is neither newest nor compared (its text still is when
-- another version has it), while a deprecated version counts like an active one.
), newest AS (
    SELECT version, schema_sha256 FROM schema_versions
    WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL AND state <> 'disabled'
      AND version < (SELECT version FROM inserted)
    ORDER BY version DESC LIMIT 1
), compared AS (
    SELECT oldest.version, hashes.schema_sha256
    FROM distinct_hashes AS hashes CROSS JOIN LATERAL (
        SELECT version FROM schema_versions
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL AND state <> 'disabled'
          AND schema_sha256 = hashes.schema_sha256
          AND version >= (SELECT floor FROM policy) AND version < (SELECT version FROM inserted)
        ORDER BY version LIMIT 1) AS oldest
    WHERE (SELECT mode FROM policy) = 'backward_transitive'
      AND hashes.schema_sha256 IS DISTINCT FROM (SELECT schema_sha256 FROM inserted)
    ORDER BY oldest.version DESC
    LIMIT $8::integer + 1
)
-- The policy row (with the new version when one was inserted), then one row 'newest' and the
-- rows 'earlier'. These reads run in the statement's snapshot, which never includes the row it
-- inserts.
SELECT 'policy', inserted.version, to_char(inserted.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), NULL::bytea, NULL::text, policy.mode, policy.enforce, policy.floor, policy.source, policy.updated
FROM policy LEFT JOIN inserted ON true
UNION ALL
SELECT 'newest', version, NULL, schema_sha256, NULL, NULL, NULL, NULL, NULL, NULL FROM newest
UNION ALL
SELECT 'earlier', version, NULL, schema_sha256, NULL, NULL, NULL, NULL, NULL, NULL FROM compared
