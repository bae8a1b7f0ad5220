SELECT pg_current_snapshot()::text,
       (CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_insert_lsn() - '0/0'::pg_lsn END)::bigint
