-- Publishes, deletes and policy changes send no NOTIFY inside their transaction any more.
--
-- A transaction that issued NOTIFY takes one lock for the whole cluster when it commits and
-- holds it through its WAL flush, so every such transaction commits after the previous one.
-- With a notification in every publish, publishes committed one at a time.
--
-- Replicas learn of these changes from the change feed instead, which every path (API, import,
-- psql) already writes in the transaction of the change. The replica that made a change sends a
-- coalesced wake-up hint after its commit, outside any data transaction, and every replica also
-- reads the feed on a short timer, for changes made without the service and for sessions where
-- LISTEN is refused (a hot standby).
--
-- Token revocations and scope or expiry changes keep their notifications (migrations 0003 and
-- 0005). They are rare, never on the publish path, and a revoked token should stop working on
-- every replica at once, not a timer later.

CREATE OR REPLACE FUNCTION registry_record_change(application bigint, change text, type_name text, version_number integer)
    RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO change_events (application_id, kind, attributes_type, version)
    VALUES (application, change, type_name, version_number);
END
$$;

DROP TRIGGER schema_versions_notify_published ON schema_versions;
DROP FUNCTION registry_notify_schema_published();

-- The feed's 'deleted' event tells every replica what this trigger told them.
DROP TRIGGER schema_versions_notify_deleted ON schema_versions;
DROP FUNCTION registry_notify_schema_deleted();

-- Each replica reads the events of the transactions its previous read's snapshot did not see
-- (the ones it listed as running and every later one), by xid.
CREATE INDEX change_events_order ON change_events (xid, id);
