-- A version's life after publishing: active, deprecated (still served, with a message and an
-- optional sunset) or disabled (withdrawn: refused by every reader, its number still taken).
-- The content never changes; only these columns do. Each state keeps its own details and a
-- change of state clears the other's, so a row always says exactly one thing.
ALTER TABLE schema_versions
    ADD COLUMN state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deprecated', 'disabled')),
    ADD COLUMN deprecation_message text CHECK (octet_length(deprecation_message) BETWEEN 1 AND 1024),
    ADD COLUMN deprecation_sunset timestamptz,
    ADD COLUMN deprecated_at timestamptz,
    ADD COLUMN deprecated_by text CHECK (octet_length(deprecated_by) <= 200),
    ADD COLUMN disabled_reason text CHECK (octet_length(disabled_reason) BETWEEN 1 AND 1024),
    ADD COLUMN disabled_at timestamptz,
    ADD COLUMN disabled_by text CHECK (octet_length(disabled_by) <= 200),
    ADD CONSTRAINT schema_versions_deprecation_when_deprecated CHECK (
        (state = 'deprecated') = (deprecation_message IS NOT NULL AND deprecated_at IS NOT NULL AND deprecated_by IS NOT NULL)
        AND (deprecation_sunset IS NULL OR state = 'deprecated')),
    ADD CONSTRAINT schema_versions_disablement_when_disabled CHECK (
        (state = 'disabled') = (disabled_reason IS NOT NULL AND disabled_at IS NOT NULL AND disabled_by IS NOT NULL));

-- The version `latest` answers for a type regardless of the rule (a rollback without deleting).
-- A pin of a version that is later deleted or disabled stays but is not followed: `latest` is
-- never a disabled or deleted version.
CREATE TABLE latest_pins (
    application_id  bigint NOT NULL,
    attributes_type text COLLATE "C" NOT NULL,
    version         integer NOT NULL,
    pinned_at       timestamptz NOT NULL DEFAULT now(),
    pinned_by       text NOT NULL CHECK (octet_length(pinned_by) <= 200),
    PRIMARY KEY (application_id, attributes_type),
    FOREIGN KEY (application_id, attributes_type, version)
        REFERENCES schema_versions (application_id, attributes_type, version)
);

ALTER TABLE change_events
    DROP CONSTRAINT change_events_kind_check,
    ADD CONSTRAINT change_events_kind_check
        CHECK (kind IN ('published', 'deleted', 'policy_changed', 'state_changed', 'latest_pinned'));

ALTER TABLE audit_events
    DROP CONSTRAINT audit_events_action_check,
    ADD CONSTRAINT audit_events_action_check CHECK (action IN (
        'publish', 'delete', 'policy_change', 'token_issue', 'token_revoke', 'token_expiry_change',
        'application_create', 'import', 'state_change', 'latest_pin'));

-- Every path that changes a state (the API, psql) feeds 'state_changed', in the transaction of
-- the change; a new deprecation message or sunset counts, since answers show them.
CREATE FUNCTION registry_feed_version_state() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM registry_record_change(NEW.application_id, 'state_changed', NEW.attributes_type, NEW.version);
    RETURN NULL;
END
$$;

CREATE TRIGGER schema_versions_feed_state
    AFTER UPDATE OF state, deprecation_message, deprecation_sunset, disabled_reason ON schema_versions
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state
                       OR OLD.deprecation_message IS DISTINCT FROM NEW.deprecation_message
                       OR OLD.deprecation_sunset IS DISTINCT FROM NEW.deprecation_sunset
                       OR OLD.disabled_reason IS DISTINCT FROM NEW.disabled_reason)
    EXECUTE FUNCTION registry_feed_version_state();

-- Pinning, moving and removing a pin feed 'latest_pinned' with the pinned version, or NULL
-- when the pin was removed.
CREATE FUNCTION registry_feed_latest_pin() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM registry_record_change(OLD.application_id, 'latest_pinned', OLD.attributes_type, NULL);
    ELSE
        PERFORM registry_record_change(NEW.application_id, 'latest_pinned', NEW.attributes_type, NEW.version);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER latest_pins_feed
    AFTER INSERT OR UPDATE OR DELETE ON latest_pins
    FOR EACH ROW EXECUTE FUNCTION registry_feed_latest_pin();
