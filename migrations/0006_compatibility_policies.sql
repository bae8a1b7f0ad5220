-- Governance, part two: a compatibility policy per application (the default for its types)
-- and per type (overriding it). attributes_type '' is the application's own row; a type name
-- is never empty. No row at all means the built-in default: backward_transitive, warn, floor 1.
-- Publishes read the policy inside their own transaction, never from a cache, so a change made
-- on one replica binds the next publish on any replica.
CREATE TABLE compatibility_policies (
    application_id           bigint NOT NULL REFERENCES applications (id),
    attributes_type          text COLLATE "C" NOT NULL DEFAULT '',
    mode                     text NOT NULL CHECK (mode IN ('none', 'backward', 'backward_transitive')),
    enforce                  text NOT NULL CHECK (enforce IN ('warn', 'reject')),
    oldest_supported_version integer NOT NULL DEFAULT 1
                             CHECK (oldest_supported_version BETWEEN 1 AND 2147483647),
    updated                  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (application_id, attributes_type)
);
