-- A subscription leaves out exactly the changes committed before it was created. Its starting
-- position is the feed's horizon, which is conservative: a transaction running in another
-- database that ends while the horizon is read cannot be placed, so it counts, and a later
-- statement may read an older horizon than an earlier one. From such a position the changes
-- that were final before the subscription existed would be sent to it. The snapshot of the
-- statement that created the subscription says which transactions had committed; the deliverer
-- skips their events. NULL: nothing is skipped (an explicit redelivery of everything since a
-- cursor, or a position past the snapshot, where it no longer matters).
ALTER TABLE webhook_subscriptions ADD COLUMN start_snapshot pg_snapshot
