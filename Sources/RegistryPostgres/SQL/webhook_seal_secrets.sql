UPDATE webhook_subscriptions
SET secret = CASE secret WHEN $2::text THEN $3::text WHEN $4::text THEN $5::text ELSE secret END,
    previous_secret = CASE previous_secret WHEN $2::text THEN $3::text WHEN $4::text THEN $5::text ELSE previous_secret END
WHERE id = $1::bigint AND (secret IN ($2::text, $4::text) OR previous_secret IN ($2::text, $4::text))
RETURNING secret, previous_secret
