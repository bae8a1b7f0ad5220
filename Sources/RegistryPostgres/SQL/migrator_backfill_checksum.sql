UPDATE schema_migrations SET checksum = $2::text WHERE version = $1::integer AND checksum IS NULL
