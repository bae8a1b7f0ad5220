SELECT registry_feed_horizon()::text
