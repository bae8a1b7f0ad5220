DELETE FROM audit_events WHERE id IN (
    SELECT id FROM audit_events WHERE at < now() - make_interval(days => $1::integer) LIMIT $2::bigint)
