SELECT pg_advisory_xact_lock(hashtextextended($2::text, $1::bigint))
