-- Replaces a live type's metadata and records its audit event in one statement. No row (and no
-- event) when the type has no live version.
WITH live AS (
    SELECT c.application_id, c.attributes_type FROM schema_version_counters AS c
    WHERE c.application_id = $1::bigint AND c.attributes_type = $2::text
      AND EXISTS (SELECT 1 FROM schema_versions AS v
                  WHERE v.application_id = c.application_id AND v.attributes_type = c.attributes_type AND v.deleted_at IS NULL)
), written AS (
    INSERT INTO type_metadata AS m (application_id, attributes_type, description, owner, labels, links)
    SELECT application_id, attributes_type, $3::text, $4::text, $5::jsonb, $6::jsonb FROM live
    ON CONFLICT (application_id, attributes_type) DO UPDATE
    SET description = EXCLUDED.description, owner = EXCLUDED.owner, labels = EXCLUDED.labels, links = EXCLUDED.links,
        updated = now()
    RETURNING description, owner, labels::text AS labels, links::text AS links,
              to_char(updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated)
SELECT description, owner, labels, links, updated,
       registry_record_audit_event($7::bigint, $8::text, $9::bigint, $10::text, $11::text, $12::bigint, $13::text,
                                   $14::integer, $15::text, $16::jsonb)
FROM written
