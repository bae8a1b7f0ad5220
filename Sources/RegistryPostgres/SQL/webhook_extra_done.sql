DELETE FROM webhook_extra_deliveries WHERE id = $1::bigint
