-- Every replica caches published versions and, for a few seconds, token lookups. These
-- triggers tell all of them at once when a version is deleted or a token revoked, through
-- one NOTIFY channel; the payload is "<kind>|<detail>".

CREATE FUNCTION registry_notify_schema_deleted() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('registry_changes',
        'schema_deleted|' || NEW.application_id || ':' || NEW.version || ':' || NEW.attributes_type);
    RETURN NULL;
END
$$;

CREATE TRIGGER schema_versions_notify_deleted
    AFTER UPDATE OF deleted_at ON schema_versions
    FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
    EXECUTE FUNCTION registry_notify_schema_deleted();

CREATE FUNCTION registry_notify_token_revoked() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('registry_changes', 'token_revoked|' || NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER api_tokens_notify_revoked
    AFTER UPDATE OF revoked_at ON api_tokens
    FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION registry_notify_token_revoked();
