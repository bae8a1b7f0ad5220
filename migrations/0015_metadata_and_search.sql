-- Metadata and search: what a type is for and who owns it, labels and release notes on versions,
-- the warnings each publish produced, and the field paths of every version, indexed for search.
--
-- Metadata is mutable, unlike a version's content. Each change is one statement that also writes
-- its `metadata_change` audit event, and a trigger adds a `metadata_changed` event to the change
-- feed in the same transaction, so every path (API, import, psql) feeds it and every replica
-- forgets the rendered versions that show it.

-- Trigram indexes make substring searches (ILIKE '%term%') an index scan. pg_trgm ships with
-- PostgreSQL's contrib package and is a trusted extension: a database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One row per type that has metadata; no row means none was ever set. Texts are COLLATE "C" like
-- the names they are searched with, so one pattern compares with all of them (ILIKE then folds
-- ASCII letters only: what a byte-compared name can promise). A type's metadata names
-- its counter row, which exists from the type's first publish and is never removed.
CREATE TABLE type_metadata (
    application_id  bigint NOT NULL,
    attributes_type text COLLATE "C" NOT NULL,
    description     text COLLATE "C" NOT NULL DEFAULT '' CHECK (octet_length(description) <= 4096),
    owner           text COLLATE "C" NOT NULL DEFAULT '' CHECK (octet_length(owner) <= 256),
    labels          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(labels) = 'object'),
    links           jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(links) = 'array'),
    updated         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (application_id, attributes_type),
    FOREIGN KEY (application_id, attributes_type)
        REFERENCES schema_version_counters (application_id, attributes_type)
);

CREATE INDEX type_metadata_description_trgm ON type_metadata USING gin (description gin_trgm_ops);
CREATE INDEX type_metadata_owner_trgm ON type_metadata USING gin (owner gin_trgm_ops);
CREATE INDEX type_metadata_labels ON type_metadata USING gin (labels jsonb_path_ops);
CREATE INDEX schema_version_counters_name_trgm ON schema_version_counters USING gin (attributes_type gin_trgm_ops);

-- A version's labels and release notes (mutable), and the warnings its publish produced (the
-- objects of the publish answer's `warnings`, kept so that a later reader sees them too).
-- fields_indexed: its field paths are in version_fields. Versions published before this
-- migration are indexed by the service at startup, from the same form descriptors the API
-- serves (the paths depend on $ref, allOf and enum-case rules that SQL would have to repeat).
ALTER TABLE schema_versions
    ADD COLUMN labels jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(labels) = 'object'),
    ADD COLUMN release_notes text NOT NULL DEFAULT '' CHECK (octet_length(release_notes) <= 8192),
    ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(warnings) = 'array'),
    ADD COLUMN fields_indexed boolean NOT NULL DEFAULT false;

CREATE INDEX schema_versions_live_labels ON schema_versions USING gin (labels jsonb_path_ops)
    WHERE deleted_at IS NULL AND labels <> '{}';

-- Versions still to index, for the startup backfill.
CREATE INDEX schema_versions_fields_unindexed ON schema_versions (application_id, attributes_type, version)
    WHERE deleted_at IS NULL AND NOT fields_indexed;

-- Every field path of a version's form (`content-state.legs[].gate`), one row each. A deleted
-- version keeps its tombstone row, so its paths are removed with its text (trigger below).
CREATE TABLE version_fields (
    application_id  bigint NOT NULL,
    attributes_type text COLLATE "C" NOT NULL,
    version         integer NOT NULL,
    path            text COLLATE "C" NOT NULL CHECK (octet_length(path) <= 2048),
    PRIMARY KEY (application_id, attributes_type, version, path),
    FOREIGN KEY (application_id, attributes_type, version)
        REFERENCES schema_versions (application_id, attributes_type, version)
);

CREATE INDEX version_fields_path_trgm ON version_fields USING gin (path gin_trgm_ops);

CREATE FUNCTION registry_drop_deleted_fields() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM version_fields
    WHERE application_id = NEW.application_id AND attributes_type = NEW.attributes_type AND version = NEW.version;
    RETURN NULL;
END
$$;

CREATE TRIGGER schema_versions_drop_deleted_fields
    AFTER UPDATE OF deleted_at ON schema_versions
    FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
    EXECUTE FUNCTION registry_drop_deleted_fields();

-- The feed's kinds, all of them: this list is written whole so it is right whether or not the
-- version-state kinds were added before.
ALTER TABLE change_events DROP CONSTRAINT change_events_kind_check;
ALTER TABLE change_events ADD CONSTRAINT change_events_kind_check CHECK (kind IN (
    'published', 'deleted', 'policy_changed', 'state_changed', 'latest_pinned', 'metadata_changed'));

ALTER TABLE audit_events DROP CONSTRAINT audit_events_action_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_action_check CHECK (action IN (
    'publish', 'delete', 'policy_change', 'token_issue', 'token_revoke', 'token_expiry_change',
    'application_create', 'import', 'state_change', 'latest_pin', 'metadata_change'));

-- A version's labels or release notes changed (not its warnings, which only its publish writes).
CREATE FUNCTION registry_feed_version_metadata() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM registry_record_change(NEW.application_id, 'metadata_changed', NEW.attributes_type, NEW.version);
    RETURN NULL;
END
$$;

CREATE TRIGGER schema_versions_feed_metadata
    AFTER UPDATE OF labels, release_notes ON schema_versions
    FOR EACH ROW WHEN (OLD.labels IS DISTINCT FROM NEW.labels OR OLD.release_notes IS DISTINCT FROM NEW.release_notes)
    EXECUTE FUNCTION registry_feed_version_metadata();

-- A type's metadata was set, replaced or removed: the event names the type and no version.
CREATE FUNCTION registry_feed_type_metadata() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    row type_metadata;
BEGIN
    IF TG_OP = 'DELETE' THEN row := OLD; ELSE row := NEW; END IF;
    PERFORM registry_record_change(row.application_id, 'metadata_changed', row.attributes_type, NULL);
    RETURN NULL;
END
$$;

CREATE TRIGGER type_metadata_feed
    AFTER INSERT OR UPDATE OR DELETE ON type_metadata
    FOR EACH ROW EXECUTE FUNCTION registry_feed_type_metadata();
