#!/usr/bin/env bash
# Browser test of the control panel: headless Chromium drives /panel/ of a real
# registry on a throwaway PostgreSQL (Tests/Scripts/stack.sh), and checks the API after each
# step, and checks every view with axe-core at both widths in light and dark mode; first it
# lints the panel's JavaScript with oxlint. Screenshots of every view go to
# Tests/artifacts/panel/ (git-ignored, or PANEL_ARTIFACTS): CI's artefacts, printed as
# "==> CI artefacts: …" before the browser starts.
#
#   bash Tests/Browser/run.sh             build the debug binary, then test it
#   STACK_BIN=path/to/schema-registry bash Tests/Browser/run.sh   test that binary, no build
#   STACK_KEEP=1 …                        keep the stack's folder (registry and PostgreSQL logs)
#
# Needs Debian's chromium, chromium-driver, python3-selenium and python3-pip; installs them with
# apt-get when missing. The last line of the output is "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/../.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for package in chromium chromium-driver python3-selenium python3-pip postgresql; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing ${missing[*]}" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Two tools from PyPI, pinned, installed once into .build/browser-tools (reinstalled when the
# pins change): axe-selenium-python bundles axe-core for the accessibility step, oxlint lints
# the panel's JavaScript. --no-deps keeps Debian's selenium; axe-selenium-python 3 declares
# Python 3.12 but its module runs on Debian 12's 3.11, hence --ignore-requires-python.
tools_dir=.build/browser-tools
tools="axe-selenium-python==3.0.0 oxlint==1.89.0"
if [ "$(cat "$tools_dir/.pins" 2>/dev/null)" != "$tools" ]; then
    echo "==> installing $tools into $tools_dir" >&2
    rm -rf "$tools_dir"
    # shellcheck disable=SC2086 # one argument per pin
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --break-system-packages --no-deps --only-binary=:all: --ignore-requires-python \
        --target "$tools_dir" $tools
    echo "$tools" >"$tools_dir/.pins"
fi

echo "==> linting the panel's JavaScript (oxlint, Tests/Browser/oxlintrc.json)" >&2
lint() { "$tools_dir/bin/oxlint" --config Tests/Browser/oxlintrc.json --deny-warnings --format unix "$@"; }
# First two broken files, a syntax error and an undefined name: a linter that passes either is
# misconfigured (or lints nothing).
canary="$(mktemp -d)"
for broken in 'const broken = ;' 'export const f = () => undefinedName;'; do
    printf '%s\n' "$broken" >"$canary/canary.js"
    if lint "$canary/canary.js" >/dev/null 2>&1; then
        echo "oxlint passed \`$broken\`: check Tests/Browser/oxlintrc.json" >&2
        rm -rf "$canary"
        exit 1
    fi
done
rm -rf "$canary"
lint Sources/RegistryAPI/Panel/assets/*.js

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
# Webhooks reach the browser test's receiver on 127.0.0.1 over plain http; the delivery worker
# looks for due events every 200 ms so a queued event arrives while the step waits.
stack_start_registry REGISTRY_HTTP_WORKERS=4 REGISTRY_WEBHOOK_ALLOW_PRIVATE=1 REGISTRY_WEBHOOK_ALLOW_HTTP=1 \
    REGISTRY_WEBHOOK_POLL_MS=200

artifacts="${PANEL_ARTIFACTS:-$PWD/Tests/artifacts/panel}"
echo "==> CI artefacts: the panel's screenshots go to $artifacts/" >&2
status=0
# Debian's python3, which sees python3-selenium (a pyenv or venv python would not).
PANEL_ARTIFACTS="$artifacts" PANEL_URL="$STACK_URL" PANEL_TOKEN="$STACK_TOKEN" PANEL_APP="$STACK_APP" \
    PYTHONPATH="$PWD/$tools_dir${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 Tests/Browser/panel_test.py "$@" || status=$?
if [ "$status" -ne 0 ]; then
    echo "==> last lines of the registry's log ($STACK_REGISTRY_LOG):" >&2
    tail -n 20 "$STACK_REGISTRY_LOG" >&2 || true
fi
exit "$status"
