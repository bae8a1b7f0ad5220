SELECT coalesce(pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn(), true)
