-- Content identity: two schema texts are the same content when they are equal once the JSON
-- whitespace outside strings (space, tab, line feed, carriage return) is removed. Everything
-- else counts as written: key order (it orders a form's fields), number spellings, string
-- escapes. The service may compute this hash itself and pass it when it inserts; a trigger
-- fills it from this function when it does not (older rows, psql, imports), and tests check
-- that both give the same answer.
--
-- The pattern matches either a whole JSON string (kept as it is, escapes included) or a run of
-- whitespace (dropped); scanning left to right, a quote inside a string is never the start of
-- a match because the string it belongs to was consumed whole.
CREATE FUNCTION registry_canonical_json(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN regexp_replace(value, '("(?:[^"\\]|\\.)*")|[ \t\n\r]+', '\1', 'g');

ALTER TABLE schema_versions ADD COLUMN content_sha256 bytea
    CHECK (content_sha256 IS NULL OR octet_length(content_sha256) = 32);

UPDATE schema_versions
SET content_sha256 = registry_text_sha256(registry_canonical_json(json_schema))
WHERE json_schema IS NOT NULL;

-- A live version always has its content hash; a deleted one (a tombstone) has none.
CREATE FUNCTION registry_fill_content_hash() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.json_schema IS NULL THEN
        NEW.content_sha256 := NULL;
    ELSIF NEW.content_sha256 IS NULL THEN
        NEW.content_sha256 := registry_text_sha256(registry_canonical_json(NEW.json_schema));
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER schema_versions_fill_content_hash
    BEFORE INSERT OR UPDATE OF json_schema, content_sha256 ON schema_versions
    FOR EACH ROW EXECUTE FUNCTION registry_fill_content_hash();

ALTER TABLE schema_versions
    ADD CONSTRAINT schema_versions_content_hash_when_live
    CHECK ((json_schema IS NULL) = (content_sha256 IS NULL));

CREATE INDEX schema_versions_live_canonical
    ON schema_versions (application_id, attributes_type, content_sha256, version)
    WHERE deleted_at IS NULL;
