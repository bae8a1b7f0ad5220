-- Records one audit event and returns its id. The one place that names the audit trail's
-- columns: the standalone insert calls it, and so do the changes written as one statement
-- (deleting a version, setting or removing a compatibility policy), which call it from the
-- SELECT over their data-modifying CTE, once per changed row. A single statement is atomic, so
-- such a change and its event commit together or not at all, and need no transaction held
-- across round trips.
CREATE FUNCTION registry_record_audit_event(
    account_id bigint, actor text, token_id bigint, token_name text, action text, application_id bigint,
    attributes_type text, version integer, request_id text, details jsonb
) RETURNS bigint
    LANGUAGE sql VOLATILE AS $$
    INSERT INTO audit_events (account_id, actor, token_id, token_name, action, application_id, attributes_type,
                              version, request_id, details)
    VALUES (account_id, actor, token_id, token_name, action, application_id, attributes_type, version, request_id,
            details)
    RETURNING id
$$;
