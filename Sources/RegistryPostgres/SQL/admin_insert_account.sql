INSERT INTO accounts (name) VALUES ($1::text) RETURNING id
