DELETE FROM version_reads WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM version_reads
    WHERE day < (now() AT TIME ZONE 'UTC')::date - $1::integer
    LIMIT $2::bigint))
