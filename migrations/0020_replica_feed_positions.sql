-- How far each replica's change follower has applied the change feed to its caches, so that a
-- state change, a pin, an unpin or a delete can wait, after its commit, until every live replica
-- has forgotten what it made stale (the propagation barrier, REGISTRY_PROPAGATION_TIMEOUT_MS).
--
-- applied_position is the snapshot of the follower's last read of the feed (its FeedPosition):
-- the events it has applied are exactly those of the transactions that snapshot sees. A change
-- has reached a replica when every event of change_events that a snapshot taken just after the
-- change's commit sees (the change's own among them) is visible in the replica's snapshot too;
-- only events count, not the transactions that wrote no event (the heartbeats themselves), and
-- the events to look at are those from the replica snapshot's xmin on (change_events_order).
-- Each follower upserts its own row after it has applied a read,
-- and at least every second as a heartbeat (seen_at): a replica not seen for 5 s is not waited
-- for, and rows not seen for an hour are pruned.
--
-- The row is rewritten about once a second per replica: a low fill factor keeps the update on
-- its page (a HOT update, with no index entry to write).
CREATE TABLE replica_feed_positions (
    replica_id       text COLLATE "C" PRIMARY KEY CHECK (octet_length(replica_id) BETWEEN 1 AND 200),
    host             text NOT NULL CHECK (octet_length(host) <= 255),
    applied_position pg_snapshot NOT NULL,
    seen_at          timestamptz NOT NULL
) WITH (fillfactor = 50);
