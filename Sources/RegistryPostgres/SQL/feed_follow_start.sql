SELECT registry_feed_horizon()::text, coalesce(max(id), 0) FROM change_events
