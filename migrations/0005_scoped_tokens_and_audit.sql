-- Governance, part one: what a token may do, and who did what.
--
-- A token has a scope (read < publish < admin), an optional display name, an optional expiry
-- and, optionally, the only applications of its account it may reach (NULL = all of them).
-- Every token that existed before scopes had full power, so existing rows become 'admin'
-- (the column default); the admin CLI always states the scope of a new token.
ALTER TABLE api_tokens
    ADD COLUMN scope text NOT NULL DEFAULT 'admin' CHECK (scope IN ('read', 'publish', 'admin')),
    ADD COLUMN name text NOT NULL DEFAULT '' CHECK (octet_length(name) <= 200),
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN application_ids bigint[] CHECK (application_ids IS NULL OR cardinality(application_ids) > 0),
    -- Day precision is enough for "last used", and it keeps the write to once a day per token.
    ADD COLUMN last_used_on date;

-- A scope or expiry change must reach every replica's lookup cache like a revocation does.
CREATE FUNCTION registry_notify_token_changed() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('registry_changes', 'token_revoked|' || NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER api_tokens_notify_changed
    AFTER UPDATE OF scope, expires_at, application_ids ON api_tokens
    FOR EACH ROW WHEN (OLD.scope IS DISTINCT FROM NEW.scope
                       OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
                       OR OLD.application_ids IS DISTINCT FROM NEW.application_ids)
    EXECUTE FUNCTION registry_notify_token_changed();

-- Which token published a version: its id, and its name (or "token <id>") as shown in the
-- version's JSON. NULL for versions published before this migration or by an import that
-- carried no publisher.
ALTER TABLE schema_versions
    ADD COLUMN created_by_token_id bigint REFERENCES api_tokens (id),
    ADD COLUMN created_by text;

-- One row per change, written in the same transaction as the change itself, so neither can
-- exist without the other. token_id is NULL for changes made with the admin CLI (actor 'cli').
-- Never holds a token secret.
CREATE TABLE audit_events (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at              timestamptz NOT NULL DEFAULT now(),
    account_id      bigint NOT NULL REFERENCES accounts (id),
    actor           text NOT NULL CHECK (actor IN ('token', 'cli')),
    token_id        bigint REFERENCES api_tokens (id),
    token_name      text NOT NULL DEFAULT '',
    action          text NOT NULL CHECK (action IN (
                        'publish', 'delete', 'policy_change', 'token_issue', 'token_revoke',
                        'token_expiry_change', 'application_create', 'import')),
    application_id  bigint REFERENCES applications (id),
    attributes_type text COLLATE "C",
    version         integer,
    request_id      text CHECK (octet_length(request_id) <= 200),
    details         jsonb NOT NULL DEFAULT '{}'
);

-- Newest first per account and per application; `at` for time filters and retention pruning.
CREATE INDEX audit_events_account ON audit_events (account_id, id DESC);
CREATE INDEX audit_events_application ON audit_events (application_id, id DESC);
CREATE INDEX audit_events_at ON audit_events (at);
