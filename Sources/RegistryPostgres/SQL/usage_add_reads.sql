INSERT INTO version_reads AS v (application_id, attributes_type, version, token_id, day, reads, last_read)
SELECT r.a, r.t, r.v, r.k, date '1970-01-01' + r.d, r.n, to_timestamp(r.l)
FROM json_to_recordset($1::json) AS r(a bigint, t text, v integer, k bigint, d integer, n bigint, l double precision)
ORDER BY r.a, r.t COLLATE "C", r.v, r.k, r.d
ON CONFLICT (application_id, attributes_type, version, token_id, day)
DO UPDATE SET reads = v.reads + excluded.reads, last_read = greatest(v.last_read, excluded.last_read)
