DELETE FROM compatibility_policies WHERE application_id = $1::bigint AND attributes_type = $2::text RETURNING 1
