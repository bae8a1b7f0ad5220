#!/usr/bin/env bash
# The robustness suite in one command: contract fuzzing, parser fuzzing, durability
# under faults, abuse and secrets. Each part also runs alone:
#
#   bash Tests/Robustness/schemathesis.sh [--quick]   schemathesis against openapi.yaml
#   bash Tests/Fuzz/run.sh SECONDS                     libFuzzer over the Registry module
#   python3 Tests/Robustness/durability.py [--quick]   PostgreSQL restart, kill -9, three replicas
#   python3 Tests/Robustness/failover.py [--quick]     primary + streaming standby: kill -9, promote,
#                                                      pg_rewind, fail back; sync and async replication
#   python3 Tests/Robustness/webhook_durability.py [--quick]   webhooks delivered in order through kill -9 and a PostgreSQL restart
#   python3 Tests/Robustness/abuse.py [--quick]        slow clients, idle flood, revocation, secrets
#   python3 Tests/Robustness/unicode_lookalikes.py [--quick]  look-alike names through the caches
#   python3 Tests/Robustness/redteam_edge.py [--quick] method flood, per-address idle flood,
#                                                      smuggling shapes, slow readers, RSS
#   python3 Tests/Robustness/compat_flood.py [--quick] large versions, parallel reviews, another account reads
#   python3 Tests/Robustness/waiters_flood.py [--quick] long polls from six addresses past every
#                                                      waiting budget; probes and a read measured
#   python3 Tests/Robustness/report_growth.py [--quick] reports of versions × fields, audit pages over
#                                                      large rows: answer and row sizes, RSS, /healthz
#   python3 Tests/Robustness/check_stalls.py [--quick] evil patterns, many items, long $ref chains, with
#                                                      /healthz latency during each
#
#   bash Tests/Robustness/run.sh [--quick] [--only contract,fuzz,durability,failover,webhooks,abuse,lookalikes,edge,compat,waiters,growth,checks]
#
# --quick (CI) keeps counts small: 25 schemathesis examples per operation, 20 s of fuzzing,
# a few seconds of load per fault. The service-level abuse tests are Swift tests
# (Tests/RegistryAPITests/AbuseAPITests.swift) and run with `swift test`.
# Prints each part's figures and ends with `N passed, M failed` (exit 1 on any failure).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root" || exit 2

quick=""
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick="--quick" ;;
        --only) only="$2"; shift ;;
        --only=*) only="${1#--only=}" ;;
        *) echo "usage: $0 [--quick] [--only contract,fuzz,durability,failover,webhooks,abuse,lookalikes,edge,compat,waiters,growth,checks]" >&2; exit 2 ;;
    esac
    shift
done
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

# shellcheck source=Tests/Robustness/lib.sh
. "$here/lib.sh"
robust_build || { echo "0 passed, 1 failed"; exit 1; }
export ROBUST_SKIP_BUILD=1

fuzz_seconds=60
[ -n "$quick" ] && fuzz_seconds=20
total_passed=0
total_failed=0
summary=()
started=$SECONDS

# Runs one part, shows its output, and adds its closing `N passed, M failed` to the totals.
part() {
    local name="$1" out line p f part_started=$SECONDS
    shift
    printf '\n===== %s =====\n' "$name"
    out="$(mktemp)"
    "$@" 2>&1 | tee "$out"
    line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)"
    rm -f "$out"
    if [ -z "$line" ]; then
        p=0 f=1
        line="no result line (the part crashed)"
    else
        p="${line%% passed*}"
        f="${line#*, }"
        f="${f%% failed*}"
    fi
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
    summary+=("$(printf '%-12s %-28s %4d s' "$name" "$line" $((SECONDS - part_started)))")
}

wanted contract && part contract bash "$here/schemathesis.sh" $quick
wanted fuzz && part fuzz bash "$root/Tests/Fuzz/run.sh" "$fuzz_seconds"
wanted durability && part durability python3 "$here/durability.py" $quick
wanted failover && part failover python3 "$here/failover.py" $quick
wanted webhooks && part webhooks python3 "$here/webhook_durability.py" $quick
wanted abuse && part abuse python3 "$here/abuse.py" $quick
wanted lookalikes && part lookalikes python3 "$here/unicode_lookalikes.py" $quick
wanted edge && part edge python3 "$here/redteam_edge.py" $quick
wanted compat && part compat python3 "$here/compat_flood.py" $quick
wanted waiters && part waiters python3 "$here/waiters_flood.py" $quick
wanted growth && part growth python3 "$here/report_growth.py" $quick
wanted checks && part checks python3 "$here/check_stalls.py" $quick

printf '\n===== robustness summary (%s, %d s) =====\n' "${quick:-full}" $((SECONDS - started))
printf '  %s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
