SELECT registry_record_audit_event($1::bigint, $2::text, $3::bigint, $4::text, $5::text, $6::bigint, $7::text,
                                   $8::integer, $9::text, $10::jsonb)
