#!/usr/bin/env python3
"""Compatibility flood: many distinct large versions of one type, then parallel dry runs and
publishes of more of them, while another account lists its versions.

  seed           distinct ~64 KB versions of one type are published one after another
  flood          parallel `:validate` and publishes of new large versions; each is answered
                 200 or, past the heavy-request bound, 503 with Retry-After (never another
                 error, never a timeout)
  other-account  another account's list stays fast during the flood (it never waits behind
                 the compatibility reviews): every call 200, slowest under 1 s
  limit          a dry run compares at most REGISTRY_COMPATIBILITY_MAX_VERSIONS distinct texts
                 and its report says it stopped
  memory         RSS before, at its peak and after the flood is printed; the peak stays under
                 256 MB

    python3 Tests/Robustness/compat_flood.py [--quick]

--quick (CI) keeps it under a minute: 40 versions, a limit of 20, 16 clients for 12 s.
Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from robustlib import Stack, closing_line, request, rss_mb, say

RESULTS: list = []  # (name, ok, figures)
TYPE = "FloodAttributes"
PEAK_RSS_LIMIT_MB = 256


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:14} {figures}", flush=True)


def large_schema(marker: str, fields: int = 640) -> str:
    """About 64 KB: many described string fields; `marker` makes the text distinct without
    changing what compatibility sees."""
    properties = {
        f"field_{index:04d}": {"type": "string", "description": f"field {index} of a large flood schema, padded out"}
        for index in range(fields)
    }
    return json.dumps({"type": "object", "description": marker, "properties": properties,
                       "attributes": {"properties": {"orderId": {"type": "string"}}, "required": ["orderId"]}})


def body(stack: Stack, marker: str) -> dict:
    return {"application": stack.app, "attributesType": TYPE, "jsonSchema": large_schema(marker)}


def seed(stack: Stack, url: str, versions: int) -> None:
    started = time.monotonic()
    statuses = [request(url, "POST", "/api/live_activity_schemas", body(stack, f"seed {index}"), token=stack.token,
                        timeout=30).status for index in range(versions)]
    ok = all(status == 200 for status in statuses)
    record("seed", ok, f"{sum(s == 200 for s in statuses)}/{versions} distinct versions of "
                       f"{len(large_schema('x')) // 1024} KB published in {time.monotonic() - started:.1f} s")


def other_account(stack: Stack) -> tuple:
    account = stack.admin("create-account", "flood bystander")
    code = stack.admin("create-application", "--account", account, "--name", "bystander app")
    token = stack.admin("issue-token", "--account", account)
    return code, token


def flood(stack: Stack, url: str, pid: int, clients: int, seconds: float, bystander: tuple) -> None:
    code, token = bystander
    for index in range(3):
        small = json.dumps({"type": "object", "description": f"bystander {index}", "properties": {"gate": {"type": "string"}}})
        request(url, "POST", "/api/live_activity_schemas", {"application": code, "attributesType": "Small", "jsonSchema": small},
                token=token)
    list_target = f"/api/live_activity_schemas?application={code}"
    baseline = []
    for _ in range(10):
        started = time.monotonic()
        request(url, "GET", list_target, token=token)
        baseline.append(time.monotonic() - started)

    rss_before = rss_mb(pid)
    peak = [rss_before]
    stop = time.monotonic() + seconds
    outcomes: list = []
    lock = threading.Lock()

    def client(number: int) -> None:
        sent = 0
        while time.monotonic() < stop:
            path = "/api/live_activity_schemas:validate" if sent % 2 == 0 else "/api/live_activity_schemas"
            started = time.monotonic()
            try:
                response = request(url, "POST", path, body(stack, f"flood {number}-{sent}"), token=stack.token, timeout=30)
                outcome = (response.status, response.headers.get("retry-after"), time.monotonic() - started)
            except OSError as error:
                outcome = (type(error).__name__, None, time.monotonic() - started)
            with lock:
                outcomes.append(outcome)
            sent += 1
            if outcome[0] == 503:
                time.sleep(0.2)

    latencies, statuses = [], []
    with ThreadPoolExecutor(max_workers=clients) as pool:
        for number in range(clients):
            pool.submit(client, number)
        while time.monotonic() < stop:
            started = time.monotonic()
            try:
                statuses.append(request(url, "GET", list_target, token=token, timeout=30).status)
            except OSError as error:
                statuses.append(type(error).__name__)
            latencies.append(time.monotonic() - started)
            peak.append(rss_mb(pid))
            time.sleep(0.1)
    peak.append(rss_mb(pid))
    time.sleep(2)
    rss_after = rss_mb(pid)

    served = [o for o in outcomes if o[0] == 200]
    busy = [o for o in outcomes if o[0] == 503]
    wrong = [o for o in outcomes if o[0] not in (200, 503) or (o[0] == 503 and o[1] is None)]
    record("flood", not wrong and served,
           f"{clients} clients, {len(outcomes)} large dry runs and publishes in {seconds:.0f} s: {len(served)} answered 200 "
           f"(median {statistics.median([o[2] for o in served]) if served else 0:.3f} s, "
           f"max {max([o[2] for o in served], default=0):.3f} s), {len(busy)} 503 busy with Retry-After, "
           f"{len(wrong)} other {sorted({str(o[0]) for o in wrong})}")
    slowest = max(latencies, default=0)
    record("other-account", all(s == 200 for s in statuses) and slowest < 1.0,
           f"{len(statuses)} lists of another account during the flood: {sum(s == 200 for s in statuses)} answered 200, "
           f"latency median {statistics.median(latencies):.3f} s, max {slowest:.3f} s "
           f"(before the flood: median {statistics.median(baseline):.3f} s)")
    record("memory", max(peak) < PEAK_RSS_LIMIT_MB,
           f"RSS before {rss_before:.0f} MB, peak {max(peak):.0f} MB (limit {PEAK_RSS_LIMIT_MB}), "
           f"2 s after the flood {rss_after:.0f} MB")


def limit(stack: Stack, url: str, maximum: int) -> None:
    response = request(url, "POST", "/api/live_activity_schemas:validate", body(stack, "limit check"), token=stack.token,
                       timeout=30)
    report = response.json().get("compatibility", {}) if response.status == 200 else {}
    compared = report.get("compared_versions", [])
    ok = response.status == 200 and 0 < len(compared) <= maximum and report.get("comparison_limit_reached") is True
    record("limit", ok, f"dry run compared {len(compared)} distinct versions (limit {maximum}), "
                        f"comparison_limit_reached {report.get('comparison_limit_reached')}: {report.get('summary')!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    versions, maximum, clients, seconds = (40, 20, 16, 12) if args.quick else (170, 100, 24, 40)
    stack = Stack.start("flood")
    print("\nCompatibility flood (the binary, large schemas, another account reading)")
    replica = stack.add_replica("flood", REGISTRY_HTTP_WORKERS=16, REGISTRY_MAX_HEAVY_REQUESTS=2,
                                REGISTRY_COMPATIBILITY_MAX_VERSIONS=maximum)
    steps = [
        ("seed", lambda: seed(stack, replica.url, versions)),
        ("limit", lambda: limit(stack, replica.url, maximum)),
        ("flood", lambda: flood(stack, replica.url, replica.pid, clients, seconds, other_account(stack))),
    ]
    for name, step in steps:
        try:
            step()
        except Exception as error:  # a broken step is a failure, not a crash of the suite
            record(name, False, f"{type(error).__name__}: {error}")
    say(f"replica log: {replica.log_path}")
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    closing_line(passed, len(RESULTS) - passed)
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
