-- Every replica remembers which version is the newest live one of each type, to answer
-- `…/{attributesType}/latest` from memory. A publish changes that answer, so it tells all
-- replicas through the same channel as a delete, naming the type: "schema_published|<application
-- id>:<version>:<attributes type>". The type comes last because it may contain ':'.
CREATE FUNCTION registry_notify_schema_published() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('registry_changes',
        'schema_published|' || NEW.application_id || ':' || NEW.version || ':' || NEW.attributes_type);
    RETURN NULL;
END
$$;

CREATE TRIGGER schema_versions_notify_published
    AFTER INSERT ON schema_versions
    FOR EACH ROW WHEN (NEW.deleted_at IS NULL)
    EXECUTE FUNCTION registry_notify_schema_published();
