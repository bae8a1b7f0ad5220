WITH target AS MATERIALIZED (
    SELECT coalesce($1::text::pg_snapshot, pg_current_snapshot()) AS taken)
SELECT target.taken::text, replica.replica_id,
       floor(extract(epoch FROM now() - replica.seen_at) * 1000)::bigint,
       (NOT EXISTS (
           SELECT FROM change_events AS event
           WHERE event.xid >= pg_snapshot_xmin(replica.applied_position)
             AND pg_visible_in_snapshot(event.xid, target.taken)
             AND NOT pg_visible_in_snapshot(event.xid, replica.applied_position)))::text
FROM target LEFT JOIN replica_feed_positions AS replica ON true
ORDER BY replica.replica_id
