DELETE FROM replica_feed_positions WHERE replica_id = $1::text
