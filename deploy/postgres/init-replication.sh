#!/bin/bash
# Run once by the postgres image when it initialises the primary's data folder
# (/docker-entrypoint-initdb.d): lets the registry's database user stream WAL to the standby.
# The user is the image's superuser, which may replicate.
set -euo pipefail
echo "host replication ${POSTGRES_USER} all scram-sha-256" >>"${PGDATA}/pg_hba.conf"
