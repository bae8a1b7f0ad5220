-- The change feed: one row per published or deleted version and per policy change, written by
-- triggers in the transaction of the change, so every path (API, import, psql) feeds it.
--
-- Ids come from a sequence and can commit out of order, so a reader must never use the id
-- alone as its cursor. Each row keeps the id of the transaction that wrote it (xid8). A reader
-- hands out only rows whose transaction is older than the oldest transaction still running
-- (pg_snapshot_xmin(pg_current_snapshot())): that set can no longer grow, and anything written
-- later has a larger xid. Ordered by (xid, id), the pair is a cursor that skips nothing and
-- repeats nothing.
CREATE TABLE change_events (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    xid             xid8 NOT NULL DEFAULT pg_current_xact_id(),
    at              timestamptz NOT NULL DEFAULT now(),
    application_id  bigint NOT NULL REFERENCES applications (id),
    kind            text NOT NULL CHECK (kind IN ('published', 'deleted', 'policy_changed')),
    -- NULL for a change of the application's own policy.
    attributes_type text COLLATE "C",
    version         integer
);

CREATE INDEX change_events_feed ON change_events (application_id, xid, id);

-- Wakes every replica's waiting readers of this application; the payload names only the
-- application id, readers then query.
CREATE FUNCTION registry_record_change(application bigint, change text, type_name text, version_number integer)
    RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO change_events (application_id, kind, attributes_type, version)
    VALUES (application, change, type_name, version_number);
    PERFORM pg_notify('registry_changes', 'feed|' || application);
END
$$;

CREATE FUNCTION registry_feed_schema_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.deleted_at IS NULL THEN
            PERFORM registry_record_change(NEW.application_id, 'published', NEW.attributes_type, NEW.version);
        END IF;
    ELSIF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
        PERFORM registry_record_change(NEW.application_id, 'deleted', NEW.attributes_type, NEW.version);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER schema_versions_feed
    AFTER INSERT OR UPDATE OF deleted_at ON schema_versions
    FOR EACH ROW EXECUTE FUNCTION registry_feed_schema_version();

CREATE FUNCTION registry_feed_policy() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    row compatibility_policies;
BEGIN
    IF TG_OP = 'DELETE' THEN row := OLD; ELSE row := NEW; END IF;
    PERFORM registry_record_change(row.application_id, 'policy_changed', NULLIF(row.attributes_type, ''), NULL);
    RETURN NULL;
END
$$;

CREATE TRIGGER compatibility_policies_feed
    AFTER INSERT OR UPDATE OR DELETE ON compatibility_policies
    FOR EACH ROW EXECUTE FUNCTION registry_feed_policy();
