SELECT id FROM applications WHERE code = $1::text AND account_id = $2::bigint
