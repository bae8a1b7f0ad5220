#!/usr/bin/env python3
"""Report growth and audit pages: compatibility reports and the audit rows that store them stay
small however many versions and fields a type has, and audit pages stay small however large
the rows they page over.

  wide-report    120 versions of 117 different names each: bursts of `:validate` and a publish
                 that remove them all; each answer and the publish's audit row under 300 KB
  huge-report    one 57 KB publish (2,000 new names) against 60 versions of 2,000 names each:
                 120,000 groups; the report, the publish's answer and its audit row under
                 300 KB (a dry run's answer, which adds the 2,000-field form, under 512 KB)
  audit-pages    parallel audit pages of 60 rows over those rows plus rows written before the
                 bound (2 MB of details each): every page under 1.1 MB, and the page tokens
                 reach every event once

Each step prints the peak RSS during its burst and the RSS 2 s after it, and the /healthz
latency (median and max) sampled during the burst; the peak stays under 256 MB and /healthz
under 1 s.

    python3 Tests/Robustness/report_growth.py [--quick]

--quick (CI) runs the same shapes with shorter bursts. Ends with a line `N passed, M failed`.
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
PEAK_RSS_LIMIT_MB = 256
ANSWER_LIMIT = 300 << 10
# A dry run answers the form of the submitted schema too: 2,000 fields make a form of ~250 KB.
DRY_RUN_LIMIT = 512 << 10
PAGE_LIMIT = (1 << 20) + (100 << 10)
HEALTHZ_LIMIT_S = 1.0


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:12} {figures}", flush=True)


def schema(names: list) -> str:
    return json.dumps({"type": "object", "properties": {name: {"type": "string"} for name in names}}, separators=(",", ":"))


def names(prefix: str, count: int, length: int) -> list:
    return [f"{prefix}f{index}_".ljust(length, "x") for index in range(count)]


def set_policy(stack: Stack, url: str, type_name: str, mode: str) -> None:
    target = f"/api/live_activity_types/{type_name}/compatibility_policy?application={stack.app}"
    response = request(url, "PUT", target, {"mode": mode, "enforce": "warn"}, token=stack.token)
    if response.status != 200:
        raise RuntimeError(f"policy {mode}: {response.status} {response.body[:200]!r}")


def seed(stack: Stack, url: str, type_name: str, versions: int, fields: int, length: int) -> None:
    """Versions of their own names, published under mode none so the seeding compares nothing."""
    set_policy(stack, url, type_name, "none")
    for version in range(1, versions + 1):
        body = {"application": stack.app, "attributesType": type_name, "jsonSchema": schema(names(f"v{version}", fields, length))}
        response = request(url, "POST", "/api/live_activity_schemas", body, token=stack.token, timeout=30)
        if response.status != 200:
            raise RuntimeError(f"seeding {type_name} v{version}: {response.status} {response.body[:200]!r}")
    set_policy(stack, url, type_name, "backward_transitive")


def audit_row_bytes(stack: Stack, type_name: str) -> int:
    value = stack.psql(f"SELECT octet_length(details::text) FROM audit_events WHERE attributes_type = '{type_name}' "
                       f"AND action = 'publish' ORDER BY id DESC LIMIT 1").strip()
    return int(value or -1)


def burst(url: str, pid: int, clients: int, rounds: int, send) -> dict:
    """`clients` threads each call `send()` `rounds` times while /healthz and RSS are sampled."""
    rss_before = rss_mb(pid)
    peak = [rss_before]
    outcomes: list = []
    lock = threading.Lock()
    done = threading.Event()

    def client() -> None:
        for _ in range(rounds):
            started = time.monotonic()
            try:
                response = send()
                outcome = (response.status, len(response.body), time.monotonic() - started, response)
            except OSError as error:
                outcome = (type(error).__name__, 0, time.monotonic() - started, None)
            with lock:
                outcomes.append(outcome)

    healthz: list = []
    healthz_statuses: list = []
    with ThreadPoolExecutor(max_workers=clients) as pool:
        futures = [pool.submit(client) for _ in range(clients)]
        threading.Thread(target=lambda: ([f.result() for f in futures], done.set()), daemon=True).start()
        while not done.is_set():
            started = time.monotonic()
            try:
                healthz_statuses.append(request(url, "GET", "/healthz", timeout=10).status)
            except OSError as error:
                healthz_statuses.append(type(error).__name__)
            healthz.append(time.monotonic() - started)
            peak.append(rss_mb(pid))
            time.sleep(0.05)
    peak.append(rss_mb(pid))
    time.sleep(2)
    return {
        "outcomes": outcomes, "rss_before": rss_before, "peak": max(peak), "after": rss_mb(pid),
        "healthz": healthz or [0.0], "healthz_ok": all(s == 200 for s in healthz_statuses),
    }


def memory_figures(result: dict) -> str:
    return (f"RSS before {result['rss_before']:.0f} MB, peak {result['peak']:.0f} MB (limit {PEAK_RSS_LIMIT_MB}), "
            f"2 s after {result['after']:.0f} MB; /healthz median {statistics.median(result['healthz']) * 1000:.1f} ms, "
            f"max {max(result['healthz']) * 1000:.1f} ms over {len(result['healthz'])} probes")


def bounded(result: dict) -> bool:
    return result["peak"] < PEAK_RSS_LIMIT_MB and result["healthz_ok"] and max(result["healthz"]) < HEALTHZ_LIMIT_S


def wide_report(stack: Stack, url: str, pid: int, clients: int, rounds: int) -> None:
    seed(stack, url, "WideAttributes", 120, 117, 12)
    body = {"application": stack.app, "attributesType": "WideAttributes", "jsonSchema": schema(["other"])}
    result = burst(url, pid, clients, rounds,
                   lambda: request(url, "POST", "/api/live_activity_schemas:validate", body, token=stack.token, timeout=30))
    answers = [o for o in result["outcomes"] if o[0] == 200]
    report = answers[0][3].json()["compatibility"] if answers else {}
    published = request(url, "POST", "/api/live_activity_schemas", body, token=stack.token, timeout=30)
    row = audit_row_bytes(stack, "WideAttributes")
    largest = max((o[1] for o in answers), default=0)
    ok = (len(answers) == len(result["outcomes"]) and largest < ANSWER_LIMIT and report.get("group_count") == 11_700
          and report.get("truncated") is True and published.status == 200 and len(published.body) < ANSWER_LIMIT
          and 0 < row < ANSWER_LIMIT and bounded(result))
    record("wide-report", ok,
           f"{len(answers)}/{len(result['outcomes'])} dry runs 200, largest {largest // 1024} KB "
           f"(median {statistics.median([o[2] for o in answers]) * 1000 if answers else 0:.0f} ms) listing "
           f"{len(report.get('groups', []))} of {report.get('group_count')} groups; publish {len(published.body) // 1024} KB, "
           f"audit row {row // 1024} KB; {memory_figures(result)}")


def huge_report(stack: Stack, url: str, pid: int, clients: int, rounds: int) -> None:
    seed(stack, url, "HugeAttributes", 60, 2_000, 0)
    text = schema([f"n{index}_".ljust(8, "y") for index in range(2_000)])
    body = {"application": stack.app, "attributesType": "HugeAttributes", "jsonSchema": text}
    # Each of these reviews finds 120,000 problems: half the clients, and time for a debug build.
    result = burst(url, pid, max(2, clients // 2), max(2, rounds // 2),
                   lambda: request(url, "POST", "/api/live_activity_schemas:validate", body, token=stack.token, timeout=300))
    answers = [o for o in result["outcomes"] if o[0] == 200]
    busy = [o for o in result["outcomes"] if o[0] == 503]
    dry_report = len(json.dumps(answers[0][3].json()["compatibility"])) if answers else 0
    published = request(url, "POST", "/api/live_activity_schemas", body, token=stack.token, timeout=300)
    report = published.json().get("compatibility", {}) if published.status == 200 else {}
    row = audit_row_bytes(stack, "HugeAttributes")
    largest = max((o[1] for o in answers), default=0)
    ok = (answers and len(answers) + len(busy) == len(result["outcomes"]) and largest < DRY_RUN_LIMIT
          and 0 < dry_report < ANSWER_LIMIT
          and published.status == 200 and len(published.body) < ANSWER_LIMIT and report.get("group_count") == 120_000
          and 0 < row < ANSWER_LIMIT and bounded(result))
    others = sorted({str(o[0]) for o in result["outcomes"] if o[0] not in (200, 503)})
    record("huge-report", ok,
           f"{len(text) // 1024} KB schema against 60 versions: {len(answers)} dry runs 200, {len(busy)} 503 busy, "
           f"other {others}, "
           f"largest {largest // 1024} KB of which the report {dry_report // 1024} KB "
           f"(median {statistics.median([o[2] for o in answers]) * 1000 if answers else 0:.0f} ms); publish {len(published.body) // 1024} KB listing {len(report.get('groups', []))} of "
           f"{report.get('group_count')} groups, audit row {row // 1024} KB; {memory_figures(result)}")


def audit_pages(stack: Stack, url: str, pid: int, clients: int, rounds: int) -> None:
    # Rows as they were written before reports were bounded: 2 MB of details each.
    application_id = stack.psql(f"SELECT id FROM applications WHERE code = '{stack.app}'").strip()
    account_id = stack.psql(f"SELECT account_id FROM applications WHERE code = '{stack.app}'").strip()
    stack.psql(f"INSERT INTO audit_events (account_id, actor, token_name, action, application_id, attributes_type, version, details) "
               f"SELECT {account_id}, 'cli', '', 'publish', {application_id}, 'LegacyAttributes', n, "
               f"jsonb_build_object('compatibility', repeat('x', 2000000)) FROM generate_series(1, 8) AS n")
    target = f"/api/audit_events?application={stack.app}&pageSize=60"
    result = burst(url, pid, clients, rounds, lambda: request(url, "GET", target, token=stack.token, timeout=30))
    pages = [o for o in result["outcomes"] if o[0] == 200]
    largest = max((o[1] for o in pages), default=0)
    # Every event once, following the tokens.
    seen: list = []
    token = None
    walked = 0
    while walked < 200:
        page = request(url, "GET", target + (f"&pageToken={token}" if token else ""), token=stack.token, timeout=30)
        if page.status != 200:
            break
        body = page.json()
        seen += [event["id"] for event in body["audit_events"]]
        walked += 1
        token = body.get("next_page_token")
        if not token:
            break
    total = int(stack.psql(f"SELECT count(*) FROM audit_events WHERE application_id = {application_id}").strip())
    ok = (len(pages) == len(result["outcomes"]) and largest < PAGE_LIMIT and len(seen) == total == len(set(seen))
          and bounded(result))
    record("audit-pages", ok,
           f"{len(pages)}/{len(result['outcomes'])} pages of up to 60 rows 200, largest {largest // 1024} KB "
           f"(median {statistics.median([o[2] for o in pages]) * 1000 if pages else 0:.0f} ms); the tokens reached "
           f"{len(seen)} of {total} events in {walked} pages; {memory_figures(result)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    clients, rounds = (4, 3) if args.quick else (8, 10)
    stack = Stack.start("growth")
    print("\nReport growth and audit pages (the binary, versions × fields, rows written before the bound)")
    replica = stack.add_replica("growth", REGISTRY_HTTP_WORKERS=8)
    steps = [
        ("wide-report", lambda: wide_report(stack, replica.url, replica.pid, clients, rounds)),
        ("huge-report", lambda: huge_report(stack, replica.url, replica.pid, clients, rounds)),
        ("audit-pages", lambda: audit_pages(stack, replica.url, replica.pid, clients, rounds)),
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
