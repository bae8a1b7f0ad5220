SELECT pg_is_in_recovery(),
       (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint,
       CASE WHEN pg_last_wal_receive_lsn() IS NULL OR pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn() THEN 0
            ELSE coalesce((extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::bigint, 0)
       END
