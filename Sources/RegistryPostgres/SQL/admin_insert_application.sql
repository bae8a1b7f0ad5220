INSERT INTO applications (code, name, account_id) VALUES ($1::text, $2::text, $3::bigint) RETURNING code, id
