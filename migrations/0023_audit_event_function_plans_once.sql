-- The audit event function plans its INSERT once per session.
--
-- A LANGUAGE sql function whose body writes is never inlined, so PostgreSQL 15 parses, analyses
-- and plans that body again on every call, and every publish records its event through it. The
-- same body in PL/pgSQL keeps its plan for the session, as a prepared statement does. Its
-- parameters, result and meaning are unchanged: it is still the one place that names the audit
-- trail's columns.
CREATE OR REPLACE FUNCTION registry_record_audit_event(
    account_id bigint, actor text, token_id bigint, token_name text, action text, application_id bigint,
    attributes_type text, version integer, request_id text, details jsonb
) RETURNS bigint
    LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    recorded bigint;
BEGIN
    INSERT INTO audit_events (account_id, actor, token_id, token_name, action, application_id, attributes_type,
                              version, request_id, details)
    VALUES (account_id, actor, token_id, token_name, action, application_id, attributes_type, version, request_id,
            details)
    RETURNING id INTO recorded;
    RETURN recorded;
END
$$;
