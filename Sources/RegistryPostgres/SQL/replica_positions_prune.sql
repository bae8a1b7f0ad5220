DELETE FROM replica_feed_positions WHERE seen_at < now() - make_interval(secs => $1::integer)
