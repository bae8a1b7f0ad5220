SELECT url, array_to_string(events, ','), type_prefix, description
FROM webhook_subscriptions
WHERE application_id = $1::bigint
ORDER BY id
