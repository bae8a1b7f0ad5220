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
      AND version < $3::bigint
    ORDER BY version DESC LIMIT 1
), compared AS (
    SELECT oldest.version, hashes.schema_sha256
    FROM distinct_hashes AS hashes CROSS JOIN LATERAL (
        SELECT version FROM schema_versions
        WHERE application_id = $1::bigint AND attributes_type = $2::text AND deleted_at IS NULL AND state <> 'disabled'
          AND schema_sha256 = hashes.schema_sha256
          AND version >= (SELECT floor FROM policy) AND version < $3::bigint
        ORDER BY version LIMIT 1) AS oldest
    WHERE (SELECT mode FROM policy) = 'backward_transitive'
      AND hashes.schema_sha256 IS DISTINCT FROM NULL::bytea
    ORDER BY oldest.version DESC
    LIMIT $4::integer + 1
)
-- The policy row, then one row 'newest' and the rows 'earlier'.
SELECT 'policy', NULL::integer, NULL::text, NULL::bytea, NULL::text, policy.mode, policy.enforce, policy.floor, policy.source, policy.updated FROM policy
UNION ALL
SELECT 'newest', version, NULL, schema_sha256, NULL, NULL, NULL, NULL, NULL, NULL FROM newest
UNION ALL
SELECT 'earlier', version, NULL, schema_sha256, NULL, NULL, NULL, NULL, NULL, NULL FROM compared
