INSERT INTO audit_events (account_id, actor, token_id, token_name, action, application_id, attributes_type,
                          version, request_id, details)
VALUES ($1::bigint, $2::text, $3::bigint, $4::text, $5::text, $6::bigint, $7::text, $8::integer, $9::text, $10::jsonb)
