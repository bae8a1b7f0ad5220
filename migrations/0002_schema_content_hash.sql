-- A content hash of each live schema text. Compatibility checks compare a new version with
-- each distinct earlier schema once (a type published many times with the same text needs
-- one comparison, not thousands), and the hash is the natural strong ETag of a version.

-- convert_to() is only STABLE because it depends on the database encoding, which is fixed for
-- the life of a database, so hashing through it is IMMUTABLE in practice.
CREATE FUNCTION registry_text_sha256(value text) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN sha256(convert_to(value, 'UTF8'));

ALTER TABLE schema_versions
    ADD COLUMN schema_sha256 bytea GENERATED ALWAYS AS (registry_text_sha256(json_schema)) STORED;

CREATE INDEX schema_versions_live_content
    ON schema_versions (application_id, attributes_type, schema_sha256, version)
    WHERE deleted_at IS NULL;
