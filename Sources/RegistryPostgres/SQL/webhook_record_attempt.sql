INSERT INTO webhook_attempts (subscription_id, at, message_id, event_type, status, succeeded, latency_ms, error,
                              response_head, replica)
VALUES ($1::bigint, to_timestamp($2::float8), $3::text, $4::text, $5::integer, $6::boolean, $7::integer, $8::text, $9::text,
        $10::text)
