#!/usr/bin/env bash
# Parser fuzzing: builds Tests/Fuzz/FuzzTarget.swift together with the sources of the pure
# Registry module as a libFuzzer binary with AddressSanitizer (and LeakSanitizer), then runs it
# for a bounded time on the seed corpus in Tests/Fuzz/corpus.
#
#   bash Tests/Fuzz/run.sh [SECONDS]      default 60 (CI uses 60, the quick suite 20)
#
# Fails on any crash, failed property, ASan report, leak, or an input running over 5 s
# (-timeout=5). A failing input is kept in the artifacts folder it prints and shown as a Swift
# byte-array literal, ready for Tests/RegistryTests/FuzzRegressionTests.swift.
#
# Settings (environment):
#   FUZZ_CACHE    where the built binary is kept between runs, keyed by a hash of its sources
#                 (default ${XDG_CACHE_HOME:-$HOME/.cache}/registry-robustness/fuzz)
#   FUZZ_OUT      folder for new corpus entries and failing inputs (default: a temp folder,
#                 removed afterwards unless something failed)
#   FUZZ_ARGS     extra libFuzzer arguments (e.g. "-jobs=2 -workers=2")
# Ends with a line `N passed, M failed`.
set -uo pipefail

seconds="${1:-60}"
case "$seconds" in '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root" || exit 2
say() { printf 'fuzz: %s\n' "$*" >&2; }

swiftc_bin="$(command -v swiftc)" || { say "swiftc not found"; echo "0 passed, 1 failed"; exit 1; }
# swiftc links the sanitizer runtimes from its own clang resource folder.
toolchain_lib="$(dirname "$(readlink -f "$swiftc_bin")")/../lib"
if ! ls "$toolchain_lib"/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
    && ! ls "$toolchain_lib"/swift/clang/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    say "the Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer) under $toolchain_lib"
    echo "0 passed, 1 failed"
    exit 1
fi

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/Registry -name '*.swift' | LC_ALL=C sort)
sources+=(Tests/Fuzz/FuzzTarget.swift)
# The Registry module hashes with OpenSSL's libcrypto through the CLibCrypto module map.
flags=(-sanitize=fuzzer,address -parse-as-library -module-name RegistryFuzz -swift-version 6 -O -g -I Sources/CLibCrypto -lm -lcrypto)
key="$( { "$swiftc_bin" --version 2>&1; printf '%s\n' "${flags[@]}"; cat "${sources[@]}" Sources/CLibCrypto/*; } | sha256sum | cut -c1-16)"
cache="${FUZZ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/registry-robustness/fuzz}"
binary="$cache/$key/registry-fuzz"
if [ -x "$binary" ]; then
    say "using the cached build $binary"
else
    mkdir -p "$cache/$key"
    say "building the fuzz target (${#sources[@]} files, -O with ASan + libFuzzer)"
    started=$SECONDS
    # lld when the toolchain has it: gold prints a warning per ASan check symbol.
    linker=()
    [ -x "$(dirname "$swiftc_bin")/ld.lld" ] || command -v ld.lld >/dev/null && linker=(-use-ld=lld)
    if ! "$swiftc_bin" "${flags[@]}" "${linker[@]}" "${sources[@]}" -o "$binary.tmp" >"$cache/$key/build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$cache/$key/build.log" | tail -n 40 >&2
        say "build failed"
        echo "0 passed, 1 failed"
        exit 1
    fi
    mv "$binary.tmp" "$binary"
    say "built in $((SECONDS - started)) s"
    # Keep only this build.
    find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} + 2>/dev/null
fi

out="${FUZZ_OUT:-}"
keep_out=0
if [ -z "$out" ]; then out="$(mktemp -d "${TMPDIR:-/tmp}/registry-fuzz.XXXXXX")"; else keep_out=1; fi
mkdir -p "$out/corpus" "$out/artifacts"
log="$out/fuzz.log"

say "fuzzing for $seconds s (corpus: $(ls Tests/Fuzz/corpus | wc -l) seeds; output in $out)"
# detect_leaks: LeakSanitizer after inputs that allocate more than they free.
# shellcheck disable=SC2086
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    "$binary" "$out/corpus" Tests/Fuzz/corpus \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=16384 \
    -dict=Tests/Fuzz/json.dict -artifact_prefix="$out/artifacts/" -print_final_stats=1 -detect_leaks=1 \
    ${FUZZ_ARGS:-} >"$log" 2>&1
status=$?

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
runs="$(stat number_of_executed_units)"
speed="$(stat average_exec_per_sec)"
rss="$(stat peak_rss_mb)"
cov="$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -n 1)"
artifacts=("$out"/artifacts/*)
[ -e "${artifacts[0]}" ] || artifacts=()

printf '\nParser fuzzing (JSONParser, SchemaRules, FormBuilder + rendering, PayloadSizeEstimator, Compatibility, PushValueChecker, LiveActivityPreview)\n'
printf '  %-22s %s\n' "time budget" "${seconds} s" "inputs executed" "${runs:-?}" "executions per second" "${speed:-?}" \
    "peak RSS" "${rss:-?} MB" "coverage" "${cov:-?}" "new corpus entries" "$(ls "$out/corpus" | wc -l)" \
    "failing inputs" "${#artifacts[@]}" "libFuzzer exit status" "$status"

if [ "$status" -ne 0 ] || [ "${#artifacts[@]}" -gt 0 ]; then
    echo
    grep -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|fuzz property violated|Fatal error|SUMMARY|ALARM|==[0-9]+==" "$log" | head -n 20
    echo "  last lines of $log:"
    tail -n 40 "$log" | sed 's/^/    /'
    for artifact in "${artifacts[@]}"; do
        echo "  failing input $artifact ($(wc -c <"$artifact") bytes) as a Swift literal:"
        python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print("    let bytes: [UInt8] = [" + ", ".join("0x%02X" % b for b in d[:4096]) + ("]" if len(d) <= 4096 else ", ...]"))' "$artifact"
    done
    say "FAILED — output kept in $out"
    echo "0 passed, 1 failed"
    exit 1
fi
[ "$keep_out" = 1 ] || rm -rf "$out"
echo "1 passed, 0 failed"
