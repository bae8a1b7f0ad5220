WITH r AS (
    SELECT token_id, version, day, reads, last_read
    FROM version_reads
    WHERE application_id = $1::bigint AND attributes_type = $2::text
      AND ($3::integer IS NULL OR version = $3::integer)
      AND ($4::integer IS NULL OR day > (now() AT TIME ZONE 'UTC')::date - $4::integer)
), readers AS (
    SELECT token_id, sum(reads) AS reads, max(last_read) AS last_read
    FROM r GROUP BY token_id
    ORDER BY sum(reads) DESC, token_id LIMIT $5::bigint
), reader_versions AS (
    SELECT token_id, version, sum(reads) AS reads,
           row_number() OVER (PARTITION BY token_id ORDER BY sum(reads) DESC, version DESC) AS rank
    FROM r WHERE $3::integer IS NULL AND token_id IN (SELECT token_id FROM readers)
    GROUP BY token_id, version
)
SELECT 'total', count(DISTINCT token_id), NULL::text, NULL::integer, coalesce(sum(reads), 0)::bigint,
       to_char(max(last_read) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM r
UNION ALL
SELECT 'reader', readers.token_id, coalesce(t.name, ''), NULL::integer, readers.reads::bigint,
       to_char(readers.last_read AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM readers LEFT JOIN api_tokens AS t ON t.id = readers.token_id
UNION ALL
SELECT 'version', token_id, NULL::text, version, reads::bigint, NULL::text
FROM reader_versions WHERE rank <= $6::bigint
UNION ALL
SELECT 'day', NULL::bigint, to_char(day, 'YYYY-MM-DD'), NULL::integer, sum(reads)::bigint, NULL::text
FROM r GROUP BY day
