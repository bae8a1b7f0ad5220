INSERT INTO schema_migrations (version, name, checksum) VALUES ($1::integer, $2::text, $3::text)
