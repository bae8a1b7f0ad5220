SELECT pg_snapshot_xmin(pg_current_snapshot())::text
