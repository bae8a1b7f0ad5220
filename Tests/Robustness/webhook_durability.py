#!/usr/bin/env python3
"""Webhook delivery under faults: every change delivered, in order per subscription.

Two replicas serve one application with two webhook subscriptions on a receiver on 127.0.0.1
(Tests/Scripts/webhook_receiver.py, which verifies every signature with the reference
`standardwebhooks` package): one wants every event, one only types starting with "T1". Writer
threads publish 1,000 changes (300 with --quick) through both replicas; meanwhile one replica is `kill -9`ed and
started again, and PostgreSQL is restarted once.

Then, per subscription, against the change feed in the database (the source of truth):
  - every expected event arrived (none missing), first arrivals in feed order;
  - duplicates only with the same webhook-id (and the same body);
  - every signature verified with the subscription's secret;
  - the attempt log accounts for every delivery (except at most one per fault and subscription,
    sent while its replica died or the database was down, and so sent again).

    python3 Tests/Robustness/webhook_durability.py [--quick] [--changes N]

Needs .build/webhook-tools (deploy/dev.sh test installs it). Ends with `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import threading
import time

from robustlib import ROOT, Stack, closing_line, log_leaks, request, say

SETTINGS = {
    "REGISTRY_WEBHOOK_ALLOW_PRIVATE": 1, "REGISTRY_WEBHOOK_ALLOW_HTTP": 1, "REGISTRY_WEBHOOK_LEASE_SECONDS": 4,
    "REGISTRY_WEBHOOK_TIMEOUT_MS": 1500, "REGISTRY_WEBHOOK_CONNECT_TIMEOUT_MS": 500, "REGISTRY_WEBHOOK_POLL_MS": 100,
    "REGISTRY_WEBHOOK_RETRY_FIRST_SECONDS": 1, "REGISTRY_WEBHOOK_RETRY_MAX_SECONDS": 2, "REGISTRY_HTTP_WORKERS": 4,
    "REGISTRY_DB_POOL_SIZE": 6,
}
TYPES = ["T1Ride", "T1Cab", "T2Flight", "T3Gate"]


def start_receiver():
    tools = os.path.join(ROOT, ".build", "webhook-tools")
    if not os.path.isdir(os.path.join(tools, "standardwebhooks")):
        raise RuntimeError("standardwebhooks is not installed in .build/webhook-tools (run deploy/dev.sh test)")
    process = subprocess.Popen(
        ["/usr/bin/python3", os.path.join(ROOT, "Tests", "Scripts", "webhook_receiver.py")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={"PYTHONPATH": tools, "PATH": "/usr/bin:/bin"})
    port = json.loads(process.stdout.readline())["port"]
    return process, f"http://127.0.0.1:{port}"


def cursor_of(body: str) -> tuple[int, int]:
    token = json.loads(body)["cursor"]
    text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    _, xid, event_id = text.split(":")
    return int(xid), int(event_id)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--changes", type=int, default=None)
    args = parser.parse_args()
    # The quick run (CI) keeps to about a minute on a debug build; the full one is 1,000 changes.
    args.changes = args.changes or (300 if args.quick else 1000)
    passed = failed = 0

    def check(ok: bool, what: str) -> None:
        nonlocal passed, failed
        passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
        say(("PASS " if ok else "FAIL ") + what)

    stack = Stack.start(tenant="hooks")
    receiver, receiver_url = start_receiver()
    try:
        a = stack.add_replica("a", **SETTINGS)
        b = stack.add_replica("b", **SETTINGS)
        secrets, ids = [], []
        for path, prefix in (("/all", ""), ("/t1", "T1")):
            created = request(a.url, "POST", f"/api/applications/{stack.app}/webhooks", token=stack.token,
                              body={"url": receiver_url + path, "events": ["published", "deleted"], "type_prefix": prefix})
            assert created.status == 200, created.body
            answer = json.loads(created.body)
            secrets.append(answer["secret"])
            ids.append(answer["webhook"]["id"])
        request(receiver_url, "POST", "/control", body={"secrets": secrets, "script": ["200"]})

        sent = {"count": 0}
        lock = threading.Lock()
        stop = threading.Event()
        schema = json.dumps({"type": "object", "properties": {"n": {"type": "string"}}})

        def writer(index: int) -> None:
            replicas = [a, b]
            n = 0
            while not stop.is_set():
                with lock:
                    if sent["count"] >= args.changes:
                        return
                    sent["count"] += 1
                replica = replicas[n % 2]
                n += 1
                body = {"application": stack.app, "attributesType": TYPES[(index + n) % len(TYPES)], "jsonSchema": schema}
                try:
                    response = request(replica.url, "POST", "/api/live_activity_schemas", token=stack.token, body=body, timeout=10)
                    if response.status != 200:
                        with lock:
                            sent["count"] -= 1
                        time.sleep(0.05)
                except OSError:
                    with lock:
                        sent["count"] -= 1
                    time.sleep(0.05)

        threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(4)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        while sent["count"] < args.changes // 3:
            time.sleep(0.05)
        say("kill -9 replica a, then start it again")
        stack.kill_replica(a)
        stack.start_replica(a)
        while sent["count"] < 2 * args.changes // 3:
            time.sleep(0.05)
        say("restarting PostgreSQL")
        stack.pg_ctl("restart", "-m", "fast")
        for thread in threads:
            thread.join(timeout=300)
        published = time.monotonic() - started
        say(f"{args.changes} changes published in {published:.1f} s")

        feed = [tuple(map(int, line.split("|")[:2])) + (line.split("|")[2],)
                for line in stack.psql(
                    "SELECT e.xid::text, e.id, coalesce(e.attributes_type, '') FROM change_events e JOIN applications a "
                    f"ON a.id = e.application_id WHERE a.code = '{stack.app}' ORDER BY e.xid, e.id").splitlines() if line]
        expected = {"/all": [(x, i) for x, i, _ in feed], "/t1": [(x, i) for x, i, t in feed if t.startswith("T1")]}
        total = sum(len(v) for v in expected.values())
        deadline = time.monotonic() + 120
        log = []
        while time.monotonic() < deadline:
            log = json.loads(request(receiver_url, "GET", "/control/log").body)
            firsts = {entry["id"] for entry in log}
            if len(firsts) >= total:
                break
            time.sleep(0.5)
        delivered_in = time.monotonic() - started
        check(len(feed) >= args.changes, f"the feed holds {len(feed)} events for {args.changes} changes")
        for path, secret_index in (("/all", 0), ("/t1", 1)):
            entries = [entry for entry in log if entry["path"] == path]
            first_order, bodies = [], {}
            duplicates_differ = 0
            for entry in entries:
                if entry["id"] in bodies:
                    duplicates_differ += bodies[entry["id"]] != entry["body"]
                    continue
                bodies[entry["id"]] = entry["body"]
                first_order.append(cursor_of(entry["body"]))
            want = expected[path]
            missing = len(set(want) - set(first_order))
            check(missing == 0, f"{path}: all {len(want)} events delivered ({missing} missing)")
            check(first_order == want, f"{path}: first arrivals in feed order")
            check(duplicates_differ == 0, f"{path}: {len(entries) - len(first_order)} duplicates, all with their event's webhook-id and body")
            unverified = sum(secret_index not in entry["verified_by"] for entry in entries)
            check(unverified == 0, f"{path}: every signature verified by standardwebhooks ({unverified} not)")
        attempts = int(stack.psql(f"SELECT count(*) FROM webhook_attempts WHERE succeeded AND subscription_id IN ({ids[0]}, {ids[1]})").strip())
        # A delivery whose replica died, or whose database went away, before its attempt was
        # written is the one sent again: at most one per fault and subscription.
        unlogged = len(log) - attempts
        check(0 <= unlogged <= 2 * 2, f"the attempt log accounts for the deliveries ({attempts} successful attempts, {len(log)} received)")
        leaks = log_leaks([r.log_path for r in stack.replicas], secrets)
        check(not leaks, f"no secret in the service logs {leaks}")
        say(f"throughput: {total} deliveries in {delivered_in:.1f} s from the first publish "
            f"({total / max(delivered_in, 0.001):.0f}/s)")
    finally:
        receiver.kill()
        stack.stop()
    closing_line(passed, failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
