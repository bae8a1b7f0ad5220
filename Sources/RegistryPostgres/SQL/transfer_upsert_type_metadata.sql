-- A row back means the type's metadata was created or changed. Identical metadata is left alone.
-- Empty metadata in the file leaves what is here.
INSERT INTO type_metadata AS m (application_id, attributes_type, description, owner, labels, links)
VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::jsonb, $6::jsonb)
ON CONFLICT (application_id, attributes_type)
DO UPDATE SET description = EXCLUDED.description, owner = EXCLUDED.owner, labels = EXCLUDED.labels, links = EXCLUDED.links,
              updated = now()
WHERE (m.description, m.owner, m.labels, m.links)
      IS DISTINCT FROM (EXCLUDED.description, EXCLUDED.owner, EXCLUDED.labels, EXCLUDED.links)
RETURNING 1
