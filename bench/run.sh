#!/usr/bin/env bash
# The registry's benchmark, one command (see bench/README.md):
#
#   bash bench/run.sh           full: 3 runs × 10 s per scenario, medians   (~10 minutes)
#   bash bench/run.sh --quick   CI:   1 run  × 3 s  per scenario            (< 2 minutes once built)
#
# Installs what is missing (wrk, nginx-light, PostgreSQL, pgbench), builds release, starts a
# throwaway PostgreSQL and two registries through Tests/Scripts/stack.sh (one with the response
# cache, one with REGISTRY_CACHE_BYTES=0, same database), seeds 1,000 types × 5 versions
# through the API, then measures every scenario with wrk and, in the same run, the baselines:
# nginx serving the same body as a static file and pgbench running the service's own SQL; and
# webhook delivery to a receiver on loopback against a plain POST loop to it (bench/webhooks.py).
# Prints one table (also written to bench/results/latest.txt) with PASS/MISS per target; the
# exit status says only whether the bench itself ran, never whether a target was met.
#
# Settings (environment): BENCH_RUNS, BENCH_DURATION (seconds), BENCH_KEEP=1 (keep the temp
# folder with logs and raw results), BENCH_PG_SYNC_COMMIT (on|off, default on), BENCH_ONLY=a,b
# (run only these labels: micro nginx get_warm check_bench check_60k pg_select get_uncached form_warm
# form_uncached list_type list_app search pg_publish_spread pg_publish_tx_spread publish_spread peer_publish_spread
# pg_publish_hot pg_publish_tx_hot publish_hot mix webhooks, which brings its baseline webhook_post), BENCH_WEBHOOK_CHANGES (changes published for the
# webhooks row; full 2,000, quick 300),
# BENCH_PERF=1 (perf profile of the serving process per scenario into bench/results/perf/), BENCH_REGISTRY_ENV="VAR=value …"
# (extra settings for both registries, e.g. "REGISTRY_HTTP_WORKERS=32"), BENCH_PG_STATEMENTS=1
# (pg_stat_statements per scenario into bench/results/statements/), BENCH_PG_SETTINGS="name=value …"
# (more PostgreSQL settings).
set -euo pipefail

# Everything is inside main, which bash reads whole before running it: editing this file while a
# bench runs cannot change what that run executes.
main() {

mode=full
case "${1:-}" in
    "") ;;
    --quick) mode=quick ;;
    -h | --help) sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: bash bench/run.sh [--quick]" >&2; exit 2 ;;
esac
if [ "$mode" = quick ]; then runs=${BENCH_RUNS:-1} duration=${BENCH_DURATION:-3} micro_ms=15 webhook_changes=${BENCH_WEBHOOK_CHANGES:-300}
else runs=${BENCH_RUNS:-3} duration=${BENCH_DURATION:-10} micro_ms=50 webhook_changes=${BENCH_WEBHOOK_CHANGES:-2000}; fi
connections=32 threads=2

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$bench_dir")"
cd "$repo"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
started_at=$SECONDS
say() { printf '==> [%3ds] %s\n' "$((SECONDS - started_at))" "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- packages, build ---------------------------------------------------------------------------
wanted=(wrk postgresql postgresql-contrib libpq-dev libssl-dev libmicrohttpd-dev pkg-config python3 curl)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || wanted+=(nginx-light)
missing=()
for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

say "building release"
swift build -c release --product schema-registry >&2
bin_path="$(swift build -c release --show-bin-path)"
export STACK_BIN="$bin_path/schema-registry"

work="$(mktemp -d "${TMPDIR:-/tmp}/registry-bench.XXXXXX")"
chmod 755 "$work"
mkdir -p "$work/results" "$work/pglog" "$work/nginx/html"
nginx_pid="" registry_b_pid="" peer_pid=""

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$nginx_pid" ]; then kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
    if [ -n "$peer_pid" ]; then kill -TERM "$peer_pid" 2>/dev/null || true; wait "$peer_pid" 2>/dev/null || true; fi
    # The registry started second is stack.sh's STACK_PID (stack_stop stops it); the first is ours.
    if [ -n "$registry_b_pid" ] && [ "$registry_b_pid" != "${STACK_PID:-}" ]; then
        kill -TERM "$registry_b_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$registry_b_pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$registry_b_pid" 2>/dev/null || true
        wait "$registry_b_pid" 2>/dev/null || true
    fi
    if declare -F stack_stop >/dev/null; then stack_stop || true; fi
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- data and the micro-benchmark (before any server runs, so it has the CPU) --------------------
say "generating 1,000 types × 5 versions"
"$python" "$bench_dir/gen_schemas.py" --out "$work/data" >"$work/data-summary.json"

say "parse / validate / form timing"
micro="$work/bench-micro"
# The Registry module imports CLibCrypto (its module map is in Sources/) and links libcrypto.
crypto=(-I Sources/CLibCrypto -lcrypto)
if ! swiftc -O -parse-as-library -I "$bin_path/Modules" "${crypto[@]}" "$bench_dir/micro/main.swift" "$bin_path"/Registry.build/*.o \
    -o "$micro" 2>"$work/micro-build.log"; then
    # The release build's object files moved or changed shape: build the module from source.
    mkdir -p "$work/micro-module"
    swiftc -O -wmo -parse-as-library -module-name Registry -emit-module -emit-module-path "$work/micro-module/Registry.swiftmodule" \
        -emit-library -static -o "$work/micro-module/libRegistry.a" "${crypto[@]}" $(find Sources/Registry -name '*.swift' | sort) >&2
    swiftc -O -parse-as-library -I "$work/micro-module" "${crypto[@]}" "$bench_dir/micro/main.swift" "$work/micro-module/libRegistry.a" -lm -o "$micro" >&2
fi
: >"$work/micro.jsonl"
if [ -z "${BENCH_ONLY:-}" ] || [[ ",$BENCH_ONLY," == *",micro,"* ]]; then
    BENCH_MICRO_BATCH_MS=$micro_ms "$micro" "$work/data/micro/1k.json" "$work/data/micro/16k.json" "$work/data/micro/64k.json" \
        >"$work/micro.jsonl"
fi

# --- PostgreSQL and the two registries ------------------------------------------------------------
# Durable like production (fsync, full_page_writes, synchronous_commit on: every publish waits
# for its WAL flush); memory sized so the whole data set is cached; no checkpoint during the
# runs (large max_wal_size, 1 h timeout) so they do not add a random stall to one scenario.
sync_commit="${BENCH_PG_SYNC_COMMIT:-on}"
pg_settings="fsync=on synchronous_commit=$sync_commit full_page_writes=on shared_buffers=512MB effective_cache_size=4GB"
pg_settings+=" wal_buffers=32MB max_wal_size=16GB checkpoint_timeout=1h max_connections=200"
[ "${BENCH_PG_STATEMENTS:-0}" = 1 ] && pg_settings+=" shared_preload_libraries=pg_stat_statements track_io_timing=on"
pg_settings+="${BENCH_PG_SETTINGS:+ $BENCH_PG_SETTINGS}"
export STACK_PG_OPTIONS=""
for setting in $pg_settings; do STACK_PG_OPTIONS+=" -c $setting"; done
# shellcheck source=../Tests/Scripts/stack.sh
. "$repo/Tests/Scripts/stack.sh"
say "starting PostgreSQL ($pg_settings)"
stack_start_postgres
trap cleanup EXIT  # stack_start_postgres installed its own; ours calls stack_stop
trap 'exit 130' INT TERM
stack_migrate
[ "${BENCH_PG_STATEMENTS:-0}" = 1 ] && stack_psql -c "CREATE EXTENSION pg_stat_statements" >/dev/null
stack_tenant bench >/dev/null
app="$STACK_APP" token="$STACK_TOKEN" account="$STACK_ACCOUNT"
postmaster_pid="$(head -n 1 "$STACK_DIR/pgdata/postmaster.pid")"
pg_bindir="$(stack_pg_bindir)"

# Both registries deliver webhooks (whichever claims the subscription first), so both may reach
# the bench's receiver on 127.0.0.1 over plain http; only webhook destinations depend on these.
# shellcheck disable=SC2206 # BENCH_REGISTRY_ENV is a list of VAR=value words on purpose
registry_env=(REGISTRY_LOG_LEVEL=warning REGISTRY_WEBHOOK_ALLOW_PRIVATE=1 REGISTRY_WEBHOOK_ALLOW_HTTP=1 ${BENCH_REGISTRY_ENV:-})
# B, without the response cache, also does the seeding, so A's memory starts from what serving needs.
stack_start_registry "${registry_env[@]}" REGISTRY_CACHE_BYTES=0
registry_b_pid="$STACK_PID" registry_b="$STACK_URL"
say "seeding through the API"
"$python" "$bench_dir/seed.py" publish --url "$registry_b" --token "$token" --app "$app" --data "$work/data/seed.jsonl"
stack_psql -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
# A has the response cache; it is warmed for each working set just before the first scenario that
# reads it (see warm below), so its RSS column grows with what it has cached.
stack_start_registry "${registry_env[@]}"
registry_a_pid="$STACK_PID" registry_a="$STACK_URL"

warm() { # what: forms | versions — fills A's cache once, before the first scenario that needs it
    local marker="$work/warmed-$1"
    [ -e "$marker" ] && return 0
    touch "$marker"
    if [ "$1" = forms ]; then
        "$python" "$bench_dir/seed.py" warm --url "$registry_a" --token "$token" --app "$app" --types "$work/data/types.txt" \
            --versions 0 --forms-version 5
    else
        "$python" "$bench_dir/seed.py" warm --url "$registry_a" --token "$token" --app "$app" --types "$work/data/types.txt"
    fi
}

# nginx serves the body the warm GET returns, as a static file, with keep-alive.
first_type="$(head -n 1 "$work/data/types.txt")"
version_path="/api/live_activity_schemas/$first_type/5?application=$app"
curl -fsS -H "Authorization: Api $token" "$registry_a$version_path" >"$work/nginx/html/version.json"
chmod -R a+rX "$work/nginx"
nginx_port="$(stack_free_port)"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 10000000;
    keepalive_timeout 65;
    types { application/json json; }
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/nginx/html;
    }
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
nginx_pid=$!
for _ in $(seq 1 50); do curl -fsS -o /dev/null "http://127.0.0.1:$nginx_port/version.json" 2>/dev/null && break; sleep 0.1; done
curl -fsS -o /dev/null "http://127.0.0.1:$nginx_port/version.json"

# --- measuring -------------------------------------------------------------------------------------
# The baselines run the service's own statements (Sources/RegistryPostgres/SQL/NAME.sql), each
# after the variables of its bench/pgbench/SCRIPT.pgbench. pgbench has no string variables, so the
# type name is rebuilt in SQL from a random index (Domain = index % 20, bench/gen_schemas.py), and
# the timestamp formats are -D variables (pgbench would read :MI and :SS inside the literal as
# variables); neither changes the plan. Comment lines are left out for the same reason.
type_expr="((ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout', 'ParcelTracking', 'EVCharging',
    'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking', 'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch',
    'RaceWeekend', 'ElectionNight', 'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer]
    || lpad(:t::text, 4, '0') || 'Attributes')"
pgbench_script() { # NAME SCRIPT VALUE…: writes $work/pglog/SCRIPT.sql, where $n is the n-th VALUE
    local name=$1 script=$2 n=0
    shift 2
    local -a values=()
    for value in "$@"; do n=$((n + 1)); values+=("P$n=$value"); done
    {
        cat "$bench_dir/pgbench/$script.pgbench"
        grep -v '^[[:space:]]*--' "$repo/Sources/RegistryPostgres/SQL/$name.sql" |
            sed -e "s/'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'/:utc_format::text/g" \
                -e "s/'Dy, DD Mon YYYY HH24:MI:SS \"GMT\"'/:http_date_format::text/g" |
            env "${values[@]}" perl -pe 's/\$(\d+)/exists $ENV{"P$1"} ? $ENV{"P$1"} : "\$$1"/ge'
        echo ';'
    } >"$work/pglog/$script.sql"
    if grep -q '\$[0-9]' "$work/pglog/$script.sql"; then
        echo "bench: $name.sql has a parameter bench/run.sh gives no value for" >&2
        exit 1
    fi
    if grep -q ':MI\|:SS' "$work/pglog/$script.sql"; then
        echo "bench: $name.sql has a time format pgbench would read as variables; add it to pgbench_script" >&2
        exit 1
    fi
}
token_id="$(stack_psql -tA -c "SELECT id FROM api_tokens WHERE account_id = $account ORDER BY id LIMIT 1")"
created_by="$(stack_psql -tA -c "SELECT CASE WHEN name = '' THEN 'token ' || id ELSE name END FROM api_tokens WHERE id = $token_id")"
# The content identity the service computes for the text (the database's function agrees with it).
content_hash="$(printf '%s\n' "SELECT encode(registry_text_sha256(registry_canonical_json(:'schema')), 'hex');" |
    stack_psql -tA -v schema="$(cat "$work/data/publish_schema.json")")"
pgbench_script store_get_version get_version :app "$type_expr" :v
schema_text="$(cat "$work/data/publish_schema.json")"
ntypes="$(wc -l <"$work/data/types.txt")"
app_id="$(stack_psql -tA -c "SELECT id FROM applications WHERE code = '$app'")"
as_pg=()  # PostgreSQL's tools refuse root: as root they run as postgres (like stack.sh)
[ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
pg_stats_psql="${as_pg[*]} $pg_bindir/psql -X -h $STACK_PG_SOCKET_DIR -p $STACK_PG_PORT -U postgres -d schema_registry"
export BENCH_TOKEN="$token" BENCH_APP="$app" BENCH_TYPES="$work/data/types.txt" BENCH_SCHEMA_FILE="$work/data/publish_schema.json"

# BENCH_PG_STATEMENTS=1: pg_stat_statements per scenario (calls, mean and total time per statement).
statements_reset() {
    [ "${BENCH_PG_STATEMENTS:-0}" = 1 ] || return 0
    stack_psql -c "SELECT pg_stat_statements_reset()" >/dev/null
}
statements_report() { # NAME
    [ "${BENCH_PG_STATEMENTS:-0}" = 1 ] || return 0
    mkdir -p "$bench_dir/results/statements"
    stack_psql -c "SELECT calls, round(mean_exec_time::numeric, 3) AS mean_ms,
            round((100 * total_exec_time / sum(total_exec_time) OVER ())::numeric, 1) AS pct_time,
            shared_blks_hit AS blks_hit, left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query
        FROM pg_stat_statements WHERE calls > 10 ORDER BY total_exec_time DESC LIMIT 8" \
        >"$bench_dir/results/statements/$1.txt"
}
selected() { # LABEL: is it in BENCH_ONLY (comma-separated labels; empty = everything)? webhooks brings its baseline.
    [ -z "${BENCH_ONLY:-}" ] || [[ ",$BENCH_ONLY," == *",$1,"* ]] ||
        { [ "$1" = webhook_post ] && [[ ",$BENCH_ONLY," == *",webhooks,"* ]]; }
}
# Writes change the database: those rows also record transactions, WAL flushes and WAL bytes per request.
pg_stats_for() { case "$1" in publish_* | pg_publish_* | peer_publish_* | mix | webhooks) printf '%s' "$pg_stats_psql" ;; esac; }
measure() { # LABEL RUN SERVER_PID METRICS_URL [--also-server-pid PID] [--kind KIND] -- COMMAND…
    local label=$1 run=$2 pid=$3 metrics=$4 perf_pid=""
    shift 4
    local -a options=()
    while [ "$1" != -- ]; do options+=("$1"); shift; done
    shift
    selected "$label" || return 0
    if [ "${BENCH_PERF:-0}" = 1 ]; then
        mkdir -p "$work/perf"
        perf record -q -F "${BENCH_PERF_FREQ:-499}" -g -p "$pid" -o "$work/perf/$label.$run.data" -- sleep "$duration" >/dev/null 2>&1 &
        perf_pid=$!
    fi
    statements_reset
    "$python" "$bench_dir/measure.py" run --label "$label" --run "$run" --out "$work/results/$label.$run.json" \
        --server-pid "$pid" --pg-pid "$postmaster_pid" ${metrics:+--metrics "$metrics"} --pg-stats "$(pg_stats_for "$label")" \
        "${options[@]}" -- "$@"
    statements_report "$label.$run"
    if [ -n "$perf_pid" ]; then
        wait "$perf_pid" || true
        mkdir -p "$bench_dir/results/perf"
        perf report -i "$work/perf/$label.$run.data" --no-children --percent-limit 0.7 --stdio -g none 2>/dev/null |
            swift demangle --simplified >"$bench_dir/results/perf/$label.$run.txt" || true
        perf report -i "$work/perf/$label.$run.data" --children --percent-limit 3 --stdio -g none 2>/dev/null |
            swift demangle --simplified >"$bench_dir/results/perf/$label.$run.children.txt" || true
    fi
}
wrk_cmd=(wrk "-t$threads" "-c$connections" "-d${duration}s" --latency)
# pgbench sessions get the settings every service session starts with (PGConnection.connect),
# so the baselines run the service's SQL the way the service runs it.
service_session_options="-c plan_cache_mode=force_generic_plan"
pgbench_run() { # LABEL RUN SCRIPT -D…
    local label=$1 run=$2 script=$3
    shift 3
    selected "$label" || return 0
    statements_reset
    "$python" "$bench_dir/measure.py" run --kind pgbench --label "$label" --run "$run" --out "$work/results/$label.$run.json" \
        --server-pid "$postmaster_pid" --pg-pid "$postmaster_pid" --pgbench-log-dir "$work/pglog" \
        --pg-stats "$(pg_stats_for "$label")" -- \
        "${as_pg[@]}" env PGOPTIONS="$service_session_options" "$pg_bindir/pgbench" -h "$STACK_PG_SOCKET_DIR" -p "$STACK_PG_PORT" -U postgres -n \
        -c "$connections" -j "$threads" -M prepared -T "$duration" -f "$work/pglog/$script" \
        -l --log-prefix="$work/pglog/pgbench_log" --sampling-rate=0.1 -D 'utc_format=YYYY-MM-DD"T"HH24:MI:SS"Z"' \
        -D 'http_date_format=Dy, DD Mon YYYY HH24:MI:SS "GMT"' \
        -D "token_id=$token_id" -D "created_by=$created_by" -D "content_hash=\\x$content_hash" \
        -D force=false -D compare_limit=100 -D "field_paths=$field_paths" "$@" schema_registry
    statements_report "$label.$run"
}
# A fresh application per publish run, so every run starts from the same state and the seeded
# application stays as seeded. Prints "code id".
fresh_app() {
    local code
    code="$(stack_run admin create-application --account "$account" --name "bench publish $1")"
    printf '%s %s\n' "$code" "$(stack_psql -tA -c "SELECT id FROM applications WHERE code = '$code'")"
}

# The field paths the service writes with the text: published once through the API into an
# application of its own, then read back.
read -r fields_app fields_app_id < <(fresh_app "field paths")
"$python" "$bench_dir/seed.py" publish --url "$registry_a" --token "$token" --app "$fields_app" --threads 1 \
    --data <("$python" -c 'import json, sys; print(json.dumps({"attributesType": "FieldPathsAttributes", "version": 1,
    "jsonSchema": open(sys.argv[1], encoding="utf-8").read()}))' "$work/data/publish_schema.json")
field_paths="$(stack_psql -tA -c "SELECT COALESCE(jsonb_agg(path ORDER BY path), '[]') FROM version_fields
    WHERE application_id = $fields_app_id")"
pgbench_script store_publish_next_free publish_next_free :app "$type_expr" :schema :token_id :created_by :force :compare_limit \
    :content_hash "'{}'" "''" :field_paths
# The publish transaction as the service sends it: BEGIN with the same statement, then its audit
# event (with the details the service recorded for the field-paths publish of the same text) with
# COMMIT, each pair pipelined with one sync, two round trips.
audit_details="$(stack_psql -tA -c "SELECT details FROM audit_events WHERE application_id = $fields_app_id AND action = 'publish'")"
pgbench_script audit_insert audit_event :account "'token'" :token_id :created_by "'publish'" :app "$type_expr" 1 "'bench'" :details
{
    awk '!begun && NF && !/^(\\|--)/ { print "\\startpipeline"; print "BEGIN;"; begun = 1 } { print }' \
        "$work/pglog/publish_next_free.sql"
    printf '%s\n' '\endpipeline' '\startpipeline'
    grep -v '^--' "$work/pglog/audit_event.sql"
    printf '%s\n' 'COMMIT;' '\endpipeline'
} >"$work/pglog/publish_transaction.sql"
# pgbench runs as postgres: it reads both scripts here and writes its logs beside them.
chown -R postgres: "$work/pglog" 2>/dev/null || true

# The publish peer (bench/peer/app.py): FastAPI + asyncpg running the same statement with the
# values pgbench sends, one uvicorn worker per core. Its pinned packages are installed once into
# .build/peer-tools; a peer that cannot be installed or started leaves its row out.
if selected peer_publish_spread; then
    peer_tools="$repo/.build/peer-tools"
    if ! cmp -s "$bench_dir/peer/requirements.txt" "$peer_tools/.pins" 2>/dev/null; then
        say "installing the publish peer's packages into .build/peer-tools"
        rm -rf "$peer_tools"
        "$python" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --break-system-packages \
            --no-deps --only-binary=:all: --target "$peer_tools" -r "$bench_dir/peer/requirements.txt" >&2 &&
            cp "$bench_dir/peer/requirements.txt" "$peer_tools/.pins" || say "the publish peer's packages did not install"
    fi
    peer_port="$(stack_free_port)"
    PYTHONPATH="$peer_tools" PEER_DATABASE_URL="$STACK_DATABASE_URL" \
        PEER_PUBLISH_SQL="$repo/Sources/RegistryPostgres/SQL/store_publish_next_free.sql" PEER_TOKEN_ID="$token_id" \
        PEER_CREATED_BY="$created_by" PEER_CONTENT_HASH="$content_hash" PEER_FIELD_PATHS="$field_paths" \
        "$python" -m uvicorn app:app --app-dir "$bench_dir/peer" --host 127.0.0.1 --port "$peer_port" --workers "$(nproc)" \
        --log-level warning --no-access-log >"$work/peer.log" 2>&1 &
    peer_pid=$!
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$peer_port/docs" 2>/dev/null && break; sleep 0.1; done
    if ! curl -fsS -o /dev/null "http://127.0.0.1:$peer_port/docs" 2>/dev/null; then
        say "the publish peer did not start; its row is left out"
        cat "$work/peer.log" >&2
        kill -TERM "$peer_pid" 2>/dev/null || true
        peer_pid=""
    fi
fi

# The check scenarios: the warm GET's version, and a ~60 KB schema (gen_schemas.py) published once
# into an application of its own, so the seeded application stays as seeded. One check of each
# before measuring fails the bench unless it is valid (and compiles the schema: the rows are warm).
check_bench_path="/api/live_activity_schemas/$first_type/5:check"
check_60k_path="/api/live_activity_schemas/CheckLarge60kAttributes/1:check"
if selected check_bench; then
    "$python" "$bench_dir/seed.py" check --url "$registry_a" --token "$token" --app "$app" --path "$check_bench_path" \
        --body "$work/data/check/bench.json"
fi
check_app="$app"
if selected check_60k; then
    read -r check_app _ < <(fresh_app "check 60k")
    "$python" "$bench_dir/seed.py" publish --url "$registry_b" --token "$token" --app "$check_app" \
        --data "$work/data/check/large.jsonl"
    "$python" "$bench_dir/seed.py" check --url "$registry_a" --token "$token" --app "$check_app" --path "$check_60k_path" \
        --body "$work/data/check/large.json"
fi

# The search scenario: an application of its own with search_types types × 10 versions, seeded
# in SQL (the API would take minutes), each version with three field paths, every tenth type with
# an owner (--quick: 1,000 types). The plan of one field search is kept in
# bench/results/search_plan.txt and printed as PASS when it scans the trigram index and no
# sequential scan of a searched table ran.
search_types=$([ "$mode" = quick ] && echo 1000 || echo 10000)
search_app="$app"
if selected search; then
    read -r search_app search_id < <(fresh_app "search")
    stack_psql -q -c "SET statement_timeout = 0" \
        -c "INSERT INTO schema_version_counters (application_id, attributes_type, last_version)
            SELECT $search_id, 'Search' || n || 'Attributes', 10 FROM generate_series(1, $search_types) AS n" \
        -c "INSERT INTO schema_versions (application_id, attributes_type, version, json_schema, fields_indexed)
            SELECT $search_id, 'Search' || n || 'Attributes', v,
                   '{\"type\":\"object\",\"properties\":{\"seat' || n || '_' || v || '\":{\"type\":\"string\"}}}', true
            FROM generate_series(1, $search_types) AS n, generate_series(1, 10) AS v" \
        -c "INSERT INTO version_fields (application_id, attributes_type, version, path)
            SELECT $search_id, 'Search' || n || 'Attributes', v, 'content-state.' || f || n || '_' || v
            FROM generate_series(1, $search_types) AS n, generate_series(1, 10) AS v, unnest(ARRAY['seat', 'gate', 'legs[].terminal']) AS f" \
        -c "INSERT INTO type_metadata (application_id, attributes_type, owner)
            SELECT $search_id, 'Search' || n || 'Attributes', 'team-' || (n % 37) FROM generate_series(1, $search_types, 10) AS n" \
        -c "ANALYZE schema_version_counters" -c "ANALYZE schema_versions" -c "ANALYZE version_fields" -c "ANALYZE type_metadata"
    mkdir -p "$bench_dir/results"
    # The generic plan, as the service's sessions run it (plan_cache_mode in PGConnection.swift).
    { echo "SET plan_cache_mode = force_generic_plan;"
      echo "PREPARE search AS"; cat "$repo/Sources/RegistryPostgres/SQL/search_types.sql"; echo ";"
      echo "EXPLAIN (ANALYZE, COSTS OFF) EXECUTE search($search_id, '[{\"kind\":\"field\",\"pattern\":\"%seat77_%\"}]', NULL, 21, 20);"
    } | stack_psql -q >"$bench_dir/results/search_plan.txt"
    # A branch with no term of its kind never runs, whatever its plan: only scans that ran count.
    if grep -q version_fields_path_trgm "$bench_dir/results/search_plan.txt" \
        && ! grep -E "Seq Scan on (schema_version_counters|type_metadata|schema_versions|version_fields)" \
            "$bench_dir/results/search_plan.txt" | grep -qv "never executed"; then
        say "search: $search_types types × 10 versions seeded; plan PASS: scans version_fields_path_trgm, no table scanned whole"
    else
        say "search: $search_types types × 10 versions seeded; plan MISS: no trigram index scan, or a sequential scan ran (bench/results/search_plan.txt)"
    fi
fi

load_at_start="$(cut -d' ' -f1-3 /proc/loadavg)"
say "measuring: $runs run(s) × ${duration} s per scenario, $connections connections, $threads threads"
for run in $(seq 1 "$runs"); do
    measure nginx "$run" "$nginx_pid" "" -- "${wrk_cmd[@]}" "http://127.0.0.1:$nginx_port/version.json"
    measure get_warm "$run" "$registry_a_pid" "$registry_a/metrics" -- \
        "${wrk_cmd[@]}" -H "Authorization: Api $token" "$registry_a$version_path"
    BENCH_CHECK_PATH="$check_bench_path" BENCH_CHECK_BODY="$work/data/check/bench.json" measure check_bench "$run" \
        "$registry_a_pid" "$registry_a/metrics" -- "${wrk_cmd[@]}" -s "$bench_dir/lua/check.lua" "$registry_a"
    BENCH_CHECK_PATH="$check_60k_path" BENCH_CHECK_BODY="$work/data/check/large.json" BENCH_CHECK_APP="$check_app" \
        measure check_60k "$run" "$registry_a_pid" "$registry_a/metrics" -- "${wrk_cmd[@]}" -s "$bench_dir/lua/check.lua" "$registry_a"
    pgbench_run pg_select "$run" get_version.sql -D "app=$app_id" -D "ntypes=$ntypes"
    measure get_uncached "$run" "$registry_b_pid" "$registry_b/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/get.lua" "$registry_b"
    selected form_warm && warm forms
    BENCH_SUFFIX=/form BENCH_VERSIONS=5 measure form_warm "$run" "$registry_a_pid" "$registry_a/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/get.lua" "$registry_a"
    BENCH_SUFFIX=/form BENCH_VERSIONS=5 measure form_uncached "$run" "$registry_b_pid" "$registry_b/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/get.lua" "$registry_b"
    measure list_type "$run" "$registry_a_pid" "$registry_a/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/list_type.lua" "$registry_a"
    measure list_app "$run" "$registry_a_pid" "$registry_a/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/list_app.lua" "$registry_a"

    read -r _ pub_id < <(fresh_app "pgbench spread $run")  # cheap: made even when the scenario is skipped
    pgbench_run pg_publish_spread "$run" publish_next_free.sql -D "app=$pub_id" -D "ntypes=$ntypes" -D "schema=$schema_text"
    read -r _ pub_id < <(fresh_app "pgbench transaction spread $run")
    pgbench_run pg_publish_tx_spread "$run" publish_transaction.sql -D "app=$pub_id" -D "ntypes=$ntypes" -D "schema=$schema_text" \
        -D "account=$account" -D "details=$audit_details"
    read -r pub_code _ < <(fresh_app "spread $run")
    BENCH_PUBLISH_APP="$pub_code" measure publish_spread "$run" "$registry_a_pid" "$registry_a/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/publish.lua" "$registry_a"
    if [ -n "$peer_pid" ]; then
        read -r pub_code _ < <(fresh_app "peer spread $run")
        BENCH_PUBLISH_APP="$pub_code" measure peer_publish_spread "$run" "$peer_pid" "" -- \
            "${wrk_cmd[@]}" -s "$bench_dir/lua/publish.lua" "http://127.0.0.1:$peer_port"
    fi
    read -r _ pub_id < <(fresh_app "pgbench hot $run")
    pgbench_run pg_publish_hot "$run" publish_next_free.sql -D "app=$pub_id" -D "ntypes=1" -D "schema=$schema_text"
    read -r _ pub_id < <(fresh_app "pgbench transaction hot $run")
    pgbench_run pg_publish_tx_hot "$run" publish_transaction.sql -D "app=$pub_id" -D "ntypes=1" -D "schema=$schema_text" \
        -D "account=$account" -D "details=$audit_details"
    read -r pub_code _ < <(fresh_app "hot $run")
    BENCH_PUBLISH_APP="$pub_code" BENCH_HOT_TYPE="$first_type" measure publish_hot "$run" "$registry_a_pid" \
        "$registry_a/metrics" -- "${wrk_cmd[@]}" -s "$bench_dir/lua/publish.lua" "$registry_a"
    BENCH_SEARCH_APP="$search_app" BENCH_SEARCH_TYPES="$search_types" measure search "$run" "$registry_a_pid" \
        "$registry_a/metrics" -- "${wrk_cmd[@]}" -s "$bench_dir/lua/search.lua" "$registry_a"
    selected mix && warm versions
    read -r pub_code _ < <(fresh_app "mix $run")
    BENCH_PUBLISH_APP="$pub_code" measure mix "$run" "$registry_a_pid" "$registry_a/metrics" -- \
        "${wrk_cmd[@]}" -s "$bench_dir/lua/mix.lua" "$registry_a"

    # Webhooks: a subscription on a fresh application to a receiver on loopback, then changes
    # published through A as fast as they are answered; both registries may deliver, so both
    # count as the server (RSS is A's). The baseline feeds the same receiver a plain POST loop.
    # Its server is the receiver, a child of the load, so the baseline's srv CPU is 0 and load has it.
    measure webhook_post "$run" 0 "" --kind json -- "$python" "$bench_dir/webhooks.py" post --changes "$webhook_changes"
    read -r pub_code _ < <(fresh_app "webhooks $run")
    measure webhooks "$run" "$registry_a_pid" "$registry_a/metrics" --also-server-pid "$registry_b_pid" --kind json -- \
        "$python" "$bench_dir/webhooks.py" deliver --url "$registry_a" --token "$token" --app "$pub_code" \
        --types "$work/data/types.txt" --schema "$work/data/publish_schema.json" --changes "$webhook_changes" \
        --bound "$((30 + webhook_changes / 20))"
done

# --- the table -----------------------------------------------------------------------------------
mkdir -p "$bench_dir/results"
rm -rf "$bench_dir/results/latest-raw"
cp -r "$work/results" "$bench_dir/results/latest-raw"
cp "$work/micro.jsonl" "$work/data-summary.json" "$bench_dir/results/latest-raw/"
echo >&2
"$python" "$bench_dir/measure.py" report --results "$work/results" --micro "$work/micro.jsonl" --mode "$mode" \
    --search-types "$search_types" --out "$bench_dir/results/latest.txt" \
    --info "date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
    --info "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- Sources 2>/dev/null || echo ' (+ local changes)')" \
    --info "machine=$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); wrk -t$threads -c$connections, ${runs} run(s) × ${duration} s; load average at start $load_at_start" \
    --info "postgres=$("$pg_bindir/postgres" --version | awk '{print $3}'): $pg_settings" \
    --info "registry=release build, ${registry_env[*]} (defaults otherwise: event loop per core, 16 handler threads, pool 16, 8 MiB cache); uncached: + REGISTRY_CACHE_BYTES=0" \
    --data-summary "$work/data-summary.json"
say "done; table in bench/results/latest.txt"
}

main "$@"
