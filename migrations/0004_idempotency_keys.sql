-- Idempotent Create: a client whose publish timed out retries with the same Idempotency-Key
-- and gets the original answer instead of a second version. Keys belong to an account and
-- live 24 hours; the row is claimed in the same transaction as the publish, so two
-- concurrent retries cannot both publish.
CREATE TABLE idempotency_keys (
    account_id     bigint NOT NULL REFERENCES accounts (id),
    key            text NOT NULL,
    request_sha256 bytea NOT NULL CHECK (octet_length(request_sha256) = 32),
    response_body  text NOT NULL,
    created        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, key)
);

CREATE INDEX idempotency_keys_created ON idempotency_keys (created);
