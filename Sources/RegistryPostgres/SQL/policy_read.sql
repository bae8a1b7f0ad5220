WITH policy (mode, enforce, floor, source, updated) AS (
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
) SELECT policy.mode, policy.enforce, policy.floor, policy.source, policy.updated FROM policy
