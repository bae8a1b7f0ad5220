#!/usr/bin/env bash
# Browser test of the control panel: headless Chromium drives /panel/ of a real
# registry on a throwaway PostgreSQL (Tests/Scripts/stack.sh), and checks the API after each
# step. Screenshots go to Tests/artifacts/panel/ (git-ignored).
#
#   bash Tests/Browser/run.sh             build the debug binary, then test it
#   STACK_BIN=path/to/schema-registry bash Tests/Browser/run.sh   test that binary, no build
#   STACK_KEEP=1 …                        keep the stack's folder (registry and PostgreSQL logs)
#
# Needs Debian's chromium, chromium-driver and python3-selenium; installs them with apt-get
# when missing. The last line of the output is "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/../.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for package in chromium chromium-driver python3-selenium postgresql; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing ${missing[*]}" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -z "${STACK_BIN:-}" ]; then
    echo "==> building schema-registry" >&2
    swift build --product schema-registry >&2
    STACK_BIN="$(swift build --show-bin-path)/schema-registry"
fi
export STACK_BIN

# shellcheck source=../Scripts/stack.sh
. Tests/Scripts/stack.sh
stack_start_postgres
stack_migrate
stack_tenant panel-test
stack_start_registry REGISTRY_HTTP_WORKERS=4

status=0
# Debian's python3, which sees python3-selenium (a pyenv or venv python would not).
PANEL_URL="$STACK_URL" PANEL_TOKEN="$STACK_TOKEN" PANEL_APP="$STACK_APP" \
    /usr/bin/python3 Tests/Browser/panel_test.py "$@" || status=$?
if [ "$status" -ne 0 ]; then
    echo "==> last lines of the registry's log ($STACK_REGISTRY_LOG):" >&2
    tail -n 20 "$STACK_REGISTRY_LOG" >&2 || true
fi
exit "$status"
