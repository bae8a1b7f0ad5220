SELECT id, code, name, account_id, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM applications WHERE code = $1::text
