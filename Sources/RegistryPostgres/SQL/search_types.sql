-- Search across an application. $2 is the query's terms, a JSON array of {"kind", "pattern"}
-- (an ILIKE pattern: word, owner, field) or {"kind": "label", "label": {"k": "v"}, "text": "k=v"},
-- and $6 to $9 the same patterns by where they look: $6 names and descriptions (the words), $7
-- owners (words and owner terms), $8 field paths, $9 labels. A type is a result when every term
-- matches it: a word its name, description or owner, owner its owner, label a label of the type
-- or of one of its live versions, field the path of a field of one of its live versions (a
-- deleted version's paths are removed with it, a disabled one's are skipped). Results in byte order of names after $3, at
-- most $4, each with its first $5 matches.
--
-- Each *_hits set is one bitmap scan of its index for all of its patterns at once (`ILIKE ANY`
-- on a trigram index, `@> ANY` on a jsonb index), so the patterns are visible to the planner.
-- Only those few rows are then matched to the terms, to say which term found what.
WITH terms AS (
    SELECT t.n, t.term ->> 'kind' AS kind, (t.term ->> 'pattern') COLLATE "C" AS pattern, t.term -> 'label' AS label,
           (t.term ->> 'text') COLLATE "C" AS label_text
    FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t (term, n)
), name_hits AS MATERIALIZED (
    SELECT c.attributes_type FROM schema_version_counters AS c
    WHERE c.application_id = $1::bigint AND c.attributes_type ILIKE ANY ($6::text[] COLLATE "C")
      AND ($3::text IS NULL OR c.attributes_type > $3::text)
), description_hits AS MATERIALIZED (
    SELECT m.attributes_type, m.description FROM type_metadata AS m
    WHERE m.application_id = $1::bigint AND m.description ILIKE ANY ($6::text[] COLLATE "C")
      AND ($3::text IS NULL OR m.attributes_type > $3::text)
), owner_hits AS MATERIALIZED (
    SELECT m.attributes_type, m.owner FROM type_metadata AS m
    WHERE m.application_id = $1::bigint AND m.owner ILIKE ANY ($7::text[] COLLATE "C")
      AND ($3::text IS NULL OR m.attributes_type > $3::text)
), type_label_hits AS MATERIALIZED (
    SELECT m.attributes_type, m.labels FROM type_metadata AS m
    WHERE m.application_id = $1::bigint AND m.labels @> ANY ($9::jsonb[])
      AND ($3::text IS NULL OR m.attributes_type > $3::text)
), version_label_hits AS MATERIALIZED (
    SELECT v.attributes_type, v.version, v.labels FROM schema_versions AS v
    WHERE v.application_id = $1::bigint AND v.labels @> ANY ($9::jsonb[]) AND v.deleted_at IS NULL AND v.labels <> '{}'
      AND v.state <> 'disabled'
      AND ($3::text IS NULL OR v.attributes_type > $3::text)
), field_hits AS MATERIALIZED (
    SELECT f.attributes_type, f.version, f.path FROM version_fields AS f
    WHERE f.application_id = $1::bigint AND f.path ILIKE ANY ($8::text[] COLLATE "C")
      AND NOT EXISTS (SELECT 1 FROM schema_versions AS v
                      WHERE v.application_id = f.application_id AND v.attributes_type = f.attributes_type
                        AND v.version = f.version AND v.state = 'disabled')
      AND ($3::text IS NULL OR f.attributes_type > $3::text)
), matches (n, attributes_type, found_in, text, version, path) AS (
    SELECT t.n, h.attributes_type, 'name', h.attributes_type, NULL::integer, NULL::text COLLATE "C"
    FROM name_hits AS h JOIN terms AS t ON t.kind = 'word' AND h.attributes_type ILIKE t.pattern
    UNION ALL
    SELECT t.n, h.attributes_type, 'description', h.description, NULL, NULL
    FROM description_hits AS h JOIN terms AS t ON t.kind = 'word' AND h.description ILIKE t.pattern
    UNION ALL
    SELECT t.n, h.attributes_type, 'owner', h.owner, NULL, NULL
    FROM owner_hits AS h JOIN terms AS t ON t.kind IN ('word', 'owner') AND h.owner ILIKE t.pattern
    UNION ALL
    SELECT t.n, h.attributes_type, 'label', t.label_text, NULL, NULL
    FROM type_label_hits AS h JOIN terms AS t ON t.kind = 'label' AND h.labels @> t.label
    UNION ALL
    SELECT t.n, h.attributes_type, 'label', t.label_text, max(h.version), NULL
    FROM version_label_hits AS h JOIN terms AS t ON t.kind = 'label' AND h.labels @> t.label
    GROUP BY t.n, h.attributes_type, t.label_text
    UNION ALL
    SELECT t.n, h.attributes_type, 'field', h.path, max(h.version), h.path
    FROM field_hits AS h JOIN terms AS t ON t.kind = 'field' AND h.path ILIKE t.pattern
    GROUP BY t.n, h.attributes_type, h.path
), found AS (
    SELECT matches.attributes_type FROM matches
    WHERE EXISTS (SELECT 1 FROM schema_versions AS v
                  WHERE v.application_id = $1::bigint AND v.attributes_type = matches.attributes_type AND v.deleted_at IS NULL)
    GROUP BY matches.attributes_type
    HAVING count(DISTINCT matches.n) = (SELECT count(*) FROM terms)
    ORDER BY matches.attributes_type
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
