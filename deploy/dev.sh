#!/usr/bin/env bash
# The README's two commands for a fresh Debian machine (as root, or as a user with sudo):
#   bash deploy/dev.sh run    build, start a local PostgreSQL under .local/, migrate, create a
#                             demo account/application/token (first run only), serve on 127.0.0.1:8080
#   bash deploy/dev.sh test   build and run every test; tests start their own throwaway clusters
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
local_dir="$root/.local"
pg_data="$local_dir/pgdata"
pg_run="$local_dir/pgrun"
pg_port="${REGISTRY_DEV_PG_PORT:-54329}"

say() { printf '==> %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

install_packages() {
    local wanted=(libpq-dev libssl-dev libmicrohttpd-dev pkg-config postgresql postgresql-contrib python3 python3-yaml)
    local missing=()
    for p in "${wanted[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    command -v swift >/dev/null || { echo "swift is not on PATH: install the Swift 6 toolchain first" >&2; exit 1; }
}

pg_bin() { echo "$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)"; }

# Runs a PostgreSQL command as the postgres user when we are root (PostgreSQL refuses root).
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

start_local_postgres() {
    local bin; bin=$(pg_bin)
    mkdir -p "$local_dir"
    if [ ! -f "$pg_data/PG_VERSION" ]; then
        say "creating a PostgreSQL cluster in $pg_data"
        mkdir -p "$pg_data" "$pg_run"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$pg_data" "$pg_run"
        as_pg "$bin/initdb" -D "$pg_data" -U postgres -A trust --no-instructions >/dev/null
    fi
    if ! as_pg "$bin/pg_ctl" -D "$pg_data" status >/dev/null 2>&1; then
        say "starting PostgreSQL on 127.0.0.1:$pg_port"
        as_pg "$bin/pg_ctl" -D "$pg_data" -w -l "$pg_run/postgres.log" \
            -o "-p $pg_port -k $pg_run -c listen_addresses=127.0.0.1" start >/dev/null
    fi
    as_pg "$bin/psql" -h "$pg_run" -p "$pg_port" -U postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname='schema_registry'" | grep -q 1 ||
        as_pg "$bin/createdb" -h "$pg_run" -p "$pg_port" -U postgres schema_registry
}

cmd_run() {
    install_packages
    start_local_postgres
    export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:$pg_port/schema_registry}"
    say "building (release)"
    swift build -c release --product schema-registry >&2
    local bin; bin="$(swift build -c release --show-bin-path)/schema-registry"
    "$bin" migrate >&2
    local demo="$local_dir/demo.env"
    if [ ! -f "$demo" ]; then
        local account app token
        account=$("$bin" admin create-account demo)
        app=$("$bin" admin create-application --account "$account" --name "Demo app")
        token=$("$bin" admin issue-token --account "$account")
        printf 'DEMO_APPLICATION=%s\nDEMO_TOKEN=%s\n' "$app" "$token" >"$demo"
        chmod 600 "$demo"
    fi
    # shellcheck disable=SC1090
    . "$demo"
    local listen="${REGISTRY_LISTEN:-127.0.0.1:8080}"
    cat >&2 <<MSG

  Schema registry on http://$listen
  Control panel:    http://$listen/panel/   (sign in with the demo token)
  Demo application: $DEMO_APPLICATION
  Demo API token:   $DEMO_TOKEN      (kept in .local/demo.env)
  Try: curl -H "Authorization: Api $DEMO_TOKEN" "http://$listen/api/live_activity_schemas?application=$DEMO_APPLICATION"

MSG
    exec "$bin" serve
}

# The reference Standard Webhooks verifier from PyPI, pinned, for the webhook tests' receiver
# (Tests/Scripts/webhook_receiver.py): the registry's signatures are checked by code it did not
# write. Installed once into .build/webhook-tools (reinstalled when the pin changes).
install_webhook_receiver_tools() {
    local dir=.build/webhook-tools pin="standardwebhooks==1.1.0"
    if [ "$(cat "$dir/.pins" 2>/dev/null)" != "$pin" ]; then
        say "installing $pin into $dir"
        rm -rf "$dir"
        /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
            --break-system-packages --no-deps --only-binary=:all: --target "$dir" "$pin"
        echo "$pin" >"$dir/.pins"
    fi
}

cmd_test() {
    install_packages
    say "building"
    swift build --build-tests >&2
    install_webhook_receiver_tools
    say "checking deploy artifacts"
    local python=/usr/bin/python3
    "$python" Tests/Scripts/test_check_deploy_artifacts.py
    "$python" Tests/Scripts/check_deploy_artifacts.py -q "$(swift build --show-bin-path)/schema-registry"
    say "running tests"
    swift test --skip-build "$@"
    say "running the control panel's browser test"
    STACK_BIN="$(swift build --show-bin-path)/schema-registry" bash Tests/Browser/run.sh
}

case "${1:-}" in
    run) shift; cmd_run "$@" ;;
    test) shift; cmd_test "$@" ;;
    *) echo "usage: bash deploy/dev.sh run|test" >&2; exit 2 ;;
esac
