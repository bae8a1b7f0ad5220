SELECT pg_current_snapshot()::text
