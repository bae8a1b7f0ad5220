#!/usr/bin/env bash
# Contract fuzzing: schemathesis (pinned, from PyPI into a cached venv) runs every operation of
# openapi.yaml against a live registry on a throwaway stack (Tests/Scripts/stack.sh), with a
# fixed seed, a bounded example count and every check on, authenticated with the stack's token
# and with the stack's application code in every request (Tests/Robustness/schemathesis.toml).
#
#   bash Tests/Robustness/schemathesis.sh [--quick] [extra schemathesis run options]
#
# Afterwards the service log is searched for the token and for the markers in the bodies the
# script sent: neither may appear. Ends with a line `N passed, M failed`.
#
# Settings: SCHEMATHESIS_EXAMPLES (per operation; default 100, 25 with --quick),
# SCHEMATHESIS_SEED (default 20260901), ROBUST_CACHE (venv location), STACK_BIN, STACK_KEEP.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=Tests/Robustness/lib.sh
. "$here/lib.sh"
cd "$ROBUST_ROOT" || exit 2

quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; fi
examples="${SCHEMATHESIS_EXAMPLES:-$([ "$quick" = 1 ] && echo 25 || echo 100)}"
seed="${SCHEMATHESIS_SEED:-20260901}"
version=4.32.5
passed=0
failed=0

venv="$ROBUST_CACHE/schemathesis-$version"
if [ ! -x "$venv/bin/schemathesis" ]; then
    python="$(robust_python)" || exit 1
    robust_say "installing schemathesis==$version into $venv"
    rm -rf "$venv"
    "$python" -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$version" >&2 \
        || { robust_say "could not install schemathesis"; rm -rf "$venv"; echo "0 passed, 1 failed"; exit 1; }
fi
robust_build || { echo "0 passed, 1 failed"; exit 1; }

# shellcheck source=Tests/Scripts/stack.sh
. "$ROBUST_ROOT/Tests/Scripts/stack.sh"
stack_start_postgres && stack_migrate && stack_tenant contract \
    && stack_start_registry REGISTRY_HTTP_WORKERS=4 REGISTRY_LOG_LEVEL=debug \
    || { echo "0 passed, 1 failed"; exit 1; }

# Rows for the path parameters of the config's dictionaries, each body carrying a marker that
# must never reach the log.
marker="body-marker-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
publish() {
    local type="$1" version="$2" body
    body="$(python3 -c 'import json, sys
schema = {"type": "object", "description": sys.argv[4],
          "properties": {"gate": {"type": "string", "description": sys.argv[4]}, "status": {"type": "string"}},
          "attributes": {"properties": {"flightNumber": {"type": "string"}}, "required": ["flightNumber"]}}
print(json.dumps({"application": sys.argv[1], "attributesType": sys.argv[2], "version": int(sys.argv[3]),
                  "jsonSchema": json.dumps(schema)}))' "$STACK_APP" "$type" "$version" "$marker")"
    curl -fsS -o /dev/null -X POST -H "Authorization: Api $STACK_TOKEN" -H 'Content-Type: application/json' \
        --data-binary "$body" "$STACK_URL/api/live_activity_schemas"
}
for type in FlightAttributes "Sport'; DROP TABLE schemas; --Attributes"; do
    for v in 1 2 3; do publish "$type" "$v" || { robust_say "seeding failed"; echo "0 passed, 1 failed"; exit 1; }; done
done

report="$STACK_DIR/schemathesis"
robust_say "schemathesis $version: seed $seed, at most $examples examples per operation, all checks"
started=$SECONDS
# From the stack's folder: schemathesis keeps a .schemathesis/ folder in its working directory.
(cd "$STACK_DIR" && STACK_APP="$STACK_APP" "$venv/bin/schemathesis" --config-file "$here/schemathesis.toml" \
    run "$ROBUST_ROOT/openapi.yaml" \
    --url "$STACK_URL" \
    --header "Authorization: Api $STACK_TOKEN" \
    --checks all \
    --seed "$seed" \
    --max-examples "$examples" \
    --workers 1 \
    --generation-database none \
    --request-timeout 10 \
    --no-color \
    --report junit --report-dir "$report" \
    "$@" >"$report.out" 2>&1)
status=$?
elapsed=$((SECONDS - started))

sed -n '/^=* FAILURES =*$/,$p' "$report.out"
cases="$(grep -oE '[0-9]+ generated.*' "$report.out" | tail -n 1)"
operations="$(grep -A2 '^API Operations:' "$report.out" | grep -oE 'Tested: [0-9]+' | head -n 1)"
server_errors="$(grep -c '^\[5[0-9][0-9]\]' "$report.out")"

printf '\nContract fuzzing (schemathesis %s, openapi.yaml, seed %s, %s examples per operation, --checks all)\n' \
    "$version" "$seed" "$examples"
printf '  %-26s %s\n' "operations" "${operations:-?}" "test cases" "${cases:-?}" \
    "5xx responses in failures" "$server_errors" "seconds" "$elapsed" "exit status" "$status"
if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    tail -n 25 "$report.out" | sed 's/^/    /'
fi

# The requests sent during the run must leave no token and no body text in the log.
if robust_log_has_no "$STACK_REGISTRY_LOG" "$STACK_TOKEN" "$marker"; then
    printf '  %-26s %s\n' "service log" "$(wc -l <"$STACK_REGISTRY_LOG") lines, no token, no body marker"
    passed=$((passed + 1))
else
    failed=$((failed + 1))
fi
[ "$failed" -eq 0 ] || STACK_KEEP=1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
