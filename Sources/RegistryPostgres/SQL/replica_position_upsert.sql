INSERT INTO replica_feed_positions (replica_id, host, applied_position, seen_at)
VALUES ($1::text, $2::text, $3::pg_snapshot, now())
ON CONFLICT (replica_id) DO UPDATE
SET host = EXCLUDED.host, applied_position = EXCLUDED.applied_position, seen_at = EXCLUDED.seen_at
