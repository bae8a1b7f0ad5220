#!/bin/bash
# The compose standby: on first start, copies the primary with pg_basebackup (-R writes
# standby.signal and primary_conninfo), then runs PostgreSQL as a hot standby streaming from
# it. After a failover (`docker compose exec -u postgres postgres-standby pg_ctl promote`) it
# is the primary; rebuild the old one as its standby with pg_rewind or a fresh basebackup.
set -euo pipefail
if [ ! -s "${PGDATA}/PG_VERSION" ]; then
    until pg_isready --host=postgres --username="${POSTGRES_USER}" --dbname=postgres; do sleep 1; done
    PGPASSWORD="${POSTGRES_PASSWORD}" pg_basebackup --host=postgres --username="${POSTGRES_USER}" \
        --pgdata="${PGDATA}" --write-recovery-conf --wal-method=stream --checkpoint=fast
    chmod 700 "${PGDATA}"
fi
exec postgres -c hot_standby=on -c wal_log_hints=on
