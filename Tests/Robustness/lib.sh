#!/usr/bin/env bash
# Shared by the robustness scripts (source it): the binary, the Python venv for schemathesis,
# and a check that the service log holds no secret.

ROBUST_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ROBUST_CACHE="${ROBUST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/registry-robustness}"

robust_say() { printf 'robustness: %s\n' "$*" >&2; }

# Builds the debug binary stack.sh runs, unless STACK_BIN points at one or it is up to date
# (swift build is incremental; a no-op build takes a few seconds).
robust_build() {
    [ -n "${STACK_BIN:-}" ] && return 0
    [ "${ROBUST_SKIP_BUILD:-0}" = 1 ] && [ -x "$ROBUST_ROOT/.build/debug/schema-registry" ] && return 0
    robust_say "swift build --product schema-registry"
    (cd "$ROBUST_ROOT" && swift build --product schema-registry >&2)
}

# A Python 3 with the venv module (Debian splits it into python3-venv).
robust_python() {
    local python=/usr/bin/python3
    [ -x "$python" ] || python="$(command -v python3)"
    if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
        robust_say "installing python3-venv"
        if [ "$(id -u)" = 0 ]; then
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        else
            sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        fi
    fi
    printf '%s\n' "$python"
}

# Fails (non-zero) when the log file contains any of the given strings; prints what it found.
robust_log_has_no() {
    local log="$1" what found=0
    shift
    for what in "$@"; do
        [ -n "$what" ] || continue
        if grep -qF -- "$what" "$log"; then
            robust_say "the service log $log contains a secret or body marker: ${what:0:12}…"
            found=1
        fi
    done
    return "$found"
}
