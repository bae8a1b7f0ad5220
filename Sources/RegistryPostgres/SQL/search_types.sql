-- Search across an application. $2 is the query's terms, a JSON array of {"kind", "pattern"}
-- (an ILIKE pattern: word, owner, field) or {"kind": "label", "label": {"k": "v"}, "text": "k=v"}.
-- A type is a result when every term matches it: a word its name, description or owner, owner
-- its owner, label a label of the type or of one of its live versions, field the path of a
-- field of one of its live versions (a deleted version's paths are removed with it, a disabled
-- one's are skipped). Results in byte order of names after $3, at most $4, each with its first
-- $5 matches.
--
-- Each branch of `matches` joins the terms of its kind to one table, on a condition that its
-- GIN index answers (ILIKE on a trigram index, @> on a jsonb index) with the term's pattern as
-- the probe. Sessions run statements with generic plans, planned without the parameters' values:
-- a probe per term is an index scan at any size, where one `ILIKE ANY ($n)` over an array of
-- unknown length was planned as ten probes and lost to a sequential scan on tables of a few
-- thousand rows. Each branch names one kind (`=`, not `IN`), so the planner expects one term.
WITH terms AS (
    SELECT t.n, t.term ->> 'kind' AS kind, (t.term ->> 'pattern') COLLATE "C" AS pattern, t.term -> 'label' AS label,
           (t.term ->> 'text') COLLATE "C" AS label_text
    FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t (term, n)
), matches (n, attributes_type, found_in, text, version, path) AS (
    SELECT t.n, c.attributes_type, 'name', c.attributes_type, NULL::integer, NULL::text COLLATE "C"
    FROM terms AS t JOIN schema_version_counters AS c ON c.attributes_type ILIKE t.pattern
    WHERE t.kind = 'word' AND c.application_id = $1::bigint AND ($3::text IS NULL OR c.attributes_type > $3::text)
    UNION ALL
    SELECT t.n, m.attributes_type, 'description', m.description, NULL, NULL
    FROM terms AS t JOIN type_metadata AS m ON m.description ILIKE t.pattern
    WHERE t.kind = 'word' AND m.application_id = $1::bigint AND ($3::text IS NULL OR m.attributes_type > $3::text)
    UNION ALL
    SELECT t.n, m.attributes_type, 'owner', m.owner, NULL, NULL
    FROM terms AS t JOIN type_metadata AS m ON m.owner ILIKE t.pattern
    WHERE t.kind = 'word' AND m.application_id = $1::bigint AND ($3::text IS NULL OR m.attributes_type > $3::text)
    UNION ALL
    SELECT t.n, m.attributes_type, 'owner', m.owner, NULL, NULL
    FROM terms AS t JOIN type_metadata AS m ON m.owner ILIKE t.pattern
    WHERE t.kind = 'owner' AND m.application_id = $1::bigint AND ($3::text IS NULL OR m.attributes_type > $3::text)
    UNION ALL
    SELECT t.n, m.attributes_type, 'label', t.label_text, NULL, NULL
    FROM terms AS t JOIN type_metadata AS m ON m.labels @> t.label
    WHERE t.kind = 'label' AND m.application_id = $1::bigint AND ($3::text IS NULL OR m.attributes_type > $3::text)
    UNION ALL
    SELECT t.n, v.attributes_type, 'label', t.label_text, max(v.version), NULL
    FROM terms AS t JOIN schema_versions AS v ON v.labels @> t.label
    WHERE t.kind = 'label' AND v.application_id = $1::bigint AND v.deleted_at IS NULL AND v.labels <> '{}'
      AND v.state <> 'disabled' AND ($3::text IS NULL OR v.attributes_type > $3::text)
    GROUP BY t.n, v.attributes_type, t.label_text
    UNION ALL
    SELECT t.n, f.attributes_type, 'field', f.path, max(f.version), f.path
    FROM terms AS t JOIN version_fields AS f ON f.path ILIKE t.pattern
    WHERE t.kind = 'field' AND f.application_id = $1::bigint AND ($3::text IS NULL OR f.attributes_type > $3::text)
      AND NOT EXISTS (SELECT 1 FROM schema_versions AS v
                      WHERE v.application_id = f.application_id AND v.attributes_type = f.attributes_type
                        AND v.version = f.version AND v.state = 'disabled')
    GROUP BY t.n, f.attributes_type, f.path
), found AS (
    -- Types with a live version only, probed in name order until the page is full: a LATERAL
    -- with LIMIT is one index probe per type, never a scan of every version of the application.
    SELECT matched.attributes_type FROM (
        SELECT matches.attributes_type FROM matches
        GROUP BY matches.attributes_type
        HAVING count(DISTINCT matches.n) = (SELECT count(*) FROM terms)
    ) AS matched
    CROSS JOIN LATERAL (SELECT 1 FROM schema_versions AS v
                        WHERE v.application_id = $1::bigint AND v.attributes_type = matched.attributes_type
                          AND v.deleted_at IS NULL
                        LIMIT 1) AS live
    ORDER BY matched.attributes_type
    LIMIT $4::bigint
)
SELECT found.attributes_type, shown.found_in, shown.text, shown.version, shown.path
FROM found CROSS JOIN LATERAL (
    SELECT DISTINCT matches.n, matches.found_in, matches.text, matches.version, matches.path FROM matches
    WHERE matches.attributes_type = found.attributes_type
    ORDER BY matches.n, matches.found_in, matches.text, matches.version DESC
    LIMIT $5::bigint
) AS shown
ORDER BY found.attributes_type, shown.n, shown.found_in, shown.text, shown.version DESC
