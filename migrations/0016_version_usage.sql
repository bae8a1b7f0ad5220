-- Who reads each version: reads per (application, type, version, token, UTC day) and the last
-- read time. Replicas count reads in memory and add them here every few seconds in one upsert
-- per flush, so no read writes to the database itself. Rows of days past the retention
-- (REGISTRY_USAGE_RETENTION_DAYS) are pruned in small batches along version_reads_day.
--
-- There is no foreign key to schema_versions: a deleted version keeps its tombstone row and
-- its history of reads, which is what its delete answer summarises.
CREATE TABLE version_reads (
    application_id  bigint NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    attributes_type text COLLATE "C" NOT NULL,
    version         integer NOT NULL CHECK (version BETWEEN 1 AND 2147483647),
    token_id        bigint NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
    day             date NOT NULL,
    reads           bigint NOT NULL CHECK (reads > 0),
    last_read       timestamptz NOT NULL,
    PRIMARY KEY (application_id, attributes_type, version, token_id, day)
);
CREATE INDEX version_reads_day ON version_reads (day);
