SELECT id, code, name, account_id, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM applications WHERE account_id = $1::bigint ORDER BY code
