#!/usr/bin/env bash
# A throwaway stack for end-to-end tests: a private PostgreSQL cluster and one running
# `schema-registry serve`, all inside one temporary folder that is removed afterwards.
#
# Source it and call the steps you need (each returns non-zero on failure):
#
#   . Tests/Scripts/stack.sh
#   stack_start_postgres            # temp cluster; exports STACK_DATABASE_URL; EXIT trap → stack_stop
#   stack_migrate                   # schema-registry migrate
#   stack_tenant                    # account + application + token: STACK_APP, STACK_TOKEN
#   stack_start_registry [VAR=val…] # serve on a free port: STACK_URL, STACK_PID
#   curl -H "Authorization: Api $STACK_TOKEN" "$STACK_URL/api/live_activity_schemas?application=$STACK_APP"
#
# Settings (environment, read when a step runs):
#   STACK_BIN             the binary (default .build/debug/schema-registry, relative to the repo)
#   STACK_MIGRATIONS_DIR  migrations folder (default the repo's migrations/)
#   STACK_START_TIMEOUT   seconds to wait for PostgreSQL and /healthz (default 60)
#   STACK_KEEP=1          keep the temp folder (logs, data) after stack_stop
#   STACK_PG_OPTIONS      extra postgres options, e.g. "-c fsync=on -c max_connections=200"
#
# Helpers: stack_run ARGS… (the binary with the stack's DATABASE_URL), stack_psql ARGS…,
# stack_free_port, stack_stop_registry [SIGNAL], stack_stop.
#
# Exported by the steps: STACK_DIR, STACK_PG_PORT, STACK_PG_SOCKET_DIR, STACK_DATABASE_URL,
# STACK_ACCOUNT, STACK_APP, STACK_TOKEN, STACK_URL, STACK_PORT, STACK_PID, STACK_REGISTRY_LOG.
#
# stack_start_postgres installs `trap stack_stop EXIT` (and turns INT/TERM into an exit), replacing
# an EXIT trap set before it; a caller that needs its own cleanup sets its trap afterwards and
# calls stack_stop from it. To restart the registry: stack_stop_registry; stack_start_registry.
#
# PostgreSQL refuses to run as root, so when we are root its commands run as the `postgres`
# user (runuser). The cluster runs with fsync off: it is thrown away, durability tests that
# need a real fsync pass `-c fsync=on` through STACK_PG_OPTIONS.

STACK_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

stack_log() { printf 'stack: %s\n' "$*" >&2; }

# The binary, resolved against the repo root when relative.
stack_bin() {
    local bin="${STACK_BIN:-.build/debug/schema-registry}"
    case "$bin" in /*) ;; *) bin="$STACK_REPO_ROOT/$bin" ;; esac
    printf '%s\n' "$bin"
}

# A TCP port that was free on 127.0.0.1 a moment ago.
stack_free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

stack_pg_bindir() {
    local dir
    dir="$(pg_config --bindir 2>/dev/null || true)"
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
        dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    fi
    [ -x "$dir/initdb" ] || { stack_log "initdb not found (install postgresql)"; return 1; }
    printf '%s\n' "$dir"
}

# Runs a command as the postgres user when we are root.
stack_as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# psql on the stack's database over its unix socket: stack_psql -c 'SELECT 1'
stack_psql() {
    stack_as_pg "$(stack_pg_bindir)/psql" -X -q -v ON_ERROR_STOP=1 -h "$STACK_PG_SOCKET_DIR" -p "$STACK_PG_PORT" \
        -U postgres -d schema_registry "$@"
}

stack_start_postgres() {
    local bindir port
    bindir="$(stack_pg_bindir)" || return 1
    STACK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/registry-stack.XXXXXX")" || return 1
    export STACK_DIR
    trap stack_stop EXIT
    trap 'exit 130' INT TERM
    chmod 755 "$STACK_DIR"
    mkdir -p "$STACK_DIR/pgdata" "$STACK_DIR/pgrun"
    [ "$(id -u)" = 0 ] && chown postgres: "$STACK_DIR/pgdata" "$STACK_DIR/pgrun"
    if ! stack_as_pg "$bindir/initdb" -D "$STACK_DIR/pgdata" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
        --no-sync --no-instructions >"$STACK_DIR/initdb.log" 2>&1; then
        stack_log "initdb failed:"; cat "$STACK_DIR/initdb.log" >&2; return 1
    fi
    port="$(stack_free_port)"
    # shellcheck disable=SC2086
    if ! stack_as_pg "$bindir/pg_ctl" -D "$STACK_DIR/pgdata" -w -t "${STACK_START_TIMEOUT:-60}" \
        -l "$STACK_DIR/pgrun/postgres.log" \
        -o "-p $port -k $STACK_DIR/pgrun -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off ${STACK_PG_OPTIONS:-}" \
        start >/dev/null; then
        stack_log "PostgreSQL did not start:"; tail -n 30 "$STACK_DIR/pgrun/postgres.log" >&2; return 1
    fi
    export STACK_PG_PORT="$port" STACK_PG_SOCKET_DIR="$STACK_DIR/pgrun"
    stack_as_pg "$bindir/createdb" -h "$STACK_PG_SOCKET_DIR" -p "$port" -U postgres schema_registry || return 1
    export STACK_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/schema_registry"
    stack_log "PostgreSQL on 127.0.0.1:$port (data in $STACK_DIR)"
}

# Runs the binary with the stack's database (and migrations folder when there is one).
stack_run() {
    local migrations="${STACK_MIGRATIONS_DIR:-$STACK_REPO_ROOT/migrations}"
    if [ -d "$migrations" ]; then
        DATABASE_URL="$STACK_DATABASE_URL" REGISTRY_MIGRATIONS_DIR="$migrations" "$(stack_bin)" "$@"
    else
        DATABASE_URL="$STACK_DATABASE_URL" "$(stack_bin)" "$@"
    fi
}

stack_migrate() {
    stack_run migrate >"$STACK_DIR/migrate.log" 2>&1 || { stack_log "migrate failed:"; cat "$STACK_DIR/migrate.log" >&2; return 1; }
}

# A new account with one application and one token: exports STACK_ACCOUNT, STACK_APP, STACK_TOKEN.
stack_tenant() {
    local name="${1:-stack}"
    STACK_ACCOUNT="$(stack_run admin create-account "$name")" || return 1
    STACK_APP="$(stack_run admin create-application --account "$STACK_ACCOUNT" --name "$name app")" || return 1
    STACK_TOKEN="$(stack_run admin issue-token --account "$STACK_ACCOUNT")" || return 1
    export STACK_ACCOUNT STACK_APP STACK_TOKEN
}

# Starts `schema-registry serve` on a free port in the background; extra arguments are
# VAR=value settings for it (e.g. REGISTRY_HTTP_WORKERS=2). Waits for /healthz.
stack_start_registry() {
    local port deadline migrations="${STACK_MIGRATIONS_DIR:-$STACK_REPO_ROOT/migrations}"
    local settings=(DATABASE_URL="$STACK_DATABASE_URL")
    [ -d "$migrations" ] && settings+=(REGISTRY_MIGRATIONS_DIR="$migrations")
    port="$(stack_free_port)"
    export STACK_PORT="$port" STACK_URL="http://127.0.0.1:$port" STACK_REGISTRY_LOG="$STACK_DIR/registry.log"
    env "${settings[@]}" REGISTRY_LISTEN="127.0.0.1:$port" "$@" "$(stack_bin)" serve >>"$STACK_REGISTRY_LOG" 2>&1 &
    export STACK_PID=$!
    deadline=$((SECONDS + ${STACK_START_TIMEOUT:-60}))
    until curl -fsS -o /dev/null --max-time 2 "$STACK_URL/healthz" 2>/dev/null; do
        if ! kill -0 "$STACK_PID" 2>/dev/null; then
            stack_log "schema-registry exited during start-up:"; tail -n 30 "$STACK_REGISTRY_LOG" >&2; return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            stack_log "schema-registry did not answer /healthz in time:"; tail -n 30 "$STACK_REGISTRY_LOG" >&2; return 1
        fi
        sleep 0.2
    done
    stack_log "schema-registry on $STACK_URL (pid $STACK_PID, log $STACK_REGISTRY_LOG)"
}

# Stops the registry started by stack_start_registry: SIGTERM (or the signal given), then
# SIGKILL after 10 s.
stack_stop_registry() {
    local signal="${1:-TERM}" i
    [ -n "${STACK_PID:-}" ] || return 0
    if kill -0 "$STACK_PID" 2>/dev/null; then
        kill -s "$signal" "$STACK_PID" 2>/dev/null
        for i in $(seq 1 50); do kill -0 "$STACK_PID" 2>/dev/null || break; sleep 0.2; done
        kill -0 "$STACK_PID" 2>/dev/null && kill -s KILL "$STACK_PID" 2>/dev/null
    fi
    wait "$STACK_PID" 2>/dev/null
    STACK_PID=""
    return 0
}

# Stops everything and removes the temp folder. Safe to call twice; keeps the caller's exit status.
stack_stop() {
    local status=$?
    stack_stop_registry
    if [ -n "${STACK_DIR:-}" ] && [ -d "$STACK_DIR/pgdata" ]; then
        stack_as_pg "$(stack_pg_bindir)/pg_ctl" -D "$STACK_DIR/pgdata" -m fast -w stop >/dev/null 2>&1
    fi
    if [ -n "${STACK_DIR:-}" ] && [ -d "$STACK_DIR" ]; then
        if [ "${STACK_KEEP:-0}" = 1 ]; then stack_log "kept $STACK_DIR"; else rm -rf "$STACK_DIR"; fi
    fi
    STACK_DIR=""
    return "$status"
}
