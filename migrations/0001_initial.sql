-- Live Activity Schema Registry: initial data model.
-- Applied by `schema-registry migrate` inside one transaction; do not add BEGIN/COMMIT here.

CREATE TABLE accounts (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name    text NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);

-- code is the public identifier (XXXXX-XXXXX); COLLATE "C" makes "ordered by code" byte order.
CREATE TABLE applications (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code       text COLLATE "C" NOT NULL UNIQUE,
    name       text NOT NULL DEFAULT '',
    account_id bigint NOT NULL REFERENCES accounts (id),
    created    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX applications_account_code ON applications (account_id, code);

-- token_hash is the SHA-256 of the secret; the secret itself is never stored.
CREATE TABLE api_tokens (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id),
    token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
    created    timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
CREATE INDEX api_tokens_account ON api_tokens (account_id);

-- The high-water mark per (application, attributes type): the highest version ever published,
-- deleted ones included. Publishing locks this row first (INSERT ... ON CONFLICT DO UPDATE),
-- which serialises concurrent publishes of one type, and "next free" is last_version + 1.
CREATE TABLE schema_version_counters (
    application_id  bigint NOT NULL REFERENCES applications (id),
    attributes_type text COLLATE "C" NOT NULL,
    last_version    integer NOT NULL CHECK (last_version BETWEEN 1 AND 2147483647),
    PRIMARY KEY (application_id, attributes_type)
);

-- One row per published version. Deleting keeps the row as a tombstone (deleted_at set,
-- json_schema NULL) so its number is never reused and re-publishing it is a conflict.
CREATE TABLE schema_versions (
    application_id  bigint NOT NULL,
    attributes_type text COLLATE "C" NOT NULL,
    version         integer NOT NULL CHECK (version BETWEEN 1 AND 2147483647),
    json_schema     text,
    created         timestamptz NOT NULL DEFAULT now(),
    deleted_at      timestamptz,
    PRIMARY KEY (application_id, attributes_type, version),
    FOREIGN KEY (application_id, attributes_type)
        REFERENCES schema_version_counters (application_id, attributes_type),
    CHECK ((deleted_at IS NULL) = (json_schema IS NOT NULL))
);

-- Serves list order (type ascending, version newest first) over live versions only.
CREATE INDEX schema_versions_live_list
    ON schema_versions (application_id, attributes_type, version DESC)
    WHERE deleted_at IS NULL;
