SELECT version, name, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    to_jsonb(m) ->> 'checksum'
FROM schema_migrations m ORDER BY version
