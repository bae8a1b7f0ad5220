#!/usr/bin/env python3
"""Durability under faults: nothing acknowledged is lost or duplicated.

While writer threads publish schema versions (next-free and explicit) to a few shared types
through every replica, each scenario injects one fault:

  a. pg-restart   PostgreSQL is restarted (`pg_ctl restart -m fast`) under load; the replicas must
                  answer 503 (never another 5xx) during the outage and recover by themselves
                  (same processes, /readyz back to 200).
  b. kill-9       one replica is killed with SIGKILL and started again.
  c. 3-replicas   three replicas write the same types at once.

Afterwards, per scenario: every create that got a 200 is read back through every live replica
(GET, `json_schema` compared byte for byte with what was sent) and found in the database with
the same content; versions per type are unique; a row that was never acknowledged is allowed
only when its request failed or timed out (its outcome was unknown to the client). The table
shows requests sent, acknowledged, lost (must be 0), duplicates (must be 0), 5xx other than 503
(must be 0) and seconds to recover. Service logs are checked for the token and body markers.

    python3 Tests/Robustness/durability.py [--quick] [--scenarios pg-restart,kill-9,3-replicas]

Python 3 standard library only; the stack comes from Tests/Scripts/stack.sh (robustlib.py).
Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import signal
import sys
import threading
import time
import urllib.parse
import zlib
from dataclasses import dataclass, field

from robustlib import Stack, closing_line, log_leaks, request, say


@dataclass
class Attempt:
    type: str
    requested: int | None
    marker: str
    schema: str
    replica: str
    started: float
    ended: float = 0.0
    status: int | None = None  # None: transport failure or timeout
    version: int | None = None
    error: str = ""

    @property
    def outcome(self) -> str:
        if self.status == 200:
            return "ack"
        if self.status in (400, 404, 409):
            return "rejected"  # definitive: nothing was written
        return "uncertain"  # 503, other 5xx, timeout, connection reset: may or may not be written


@dataclass
class Scenario:
    name: str
    replicas: int
    prefix: str
    types: list
    attempts: list = field(default_factory=list)
    fault_started: float | None = None
    fault_ended: float | None = None
    recover_seconds: float | None = None
    outage_seconds: float | None = None
    notes: list = field(default_factory=list)
    problems: list = field(default_factory=list)


def schema_text(marker: str, rng: random.Random) -> str:
    # Compact and deterministic; the marker makes every published text unique and identifiable.
    properties = {"gate": {"type": "string", "maxLength": 8}, "status": {"type": "string"}}
    if rng.random() < 0.5:
        properties["eta"] = {"type": "number", "x-swift-type": "Date"}
    return json.dumps({"type": "object", "description": marker, "properties": properties,
                       "attributes": {"properties": {"flight": {"type": "string"}}, "required": ["flight"]}},
                      separators=(",", ":"))


def writer(stack: Stack, scenario: Scenario, index: int, stop: threading.Event, lock: threading.Lock,
           live: list, explicit_share: float) -> None:
    rng = random.Random(zlib.crc32(scenario.name.encode()) * 1000 + index)
    sequence = 0
    while not stop.is_set():
        sequence += 1
        replica = live[(index + sequence) % len(live)]
        type_name = rng.choice(scenario.types)
        requested = rng.randint(1, 400) if rng.random() < explicit_share else None
        marker = f"durability-{scenario.name}-w{index}-{sequence}-{rng.getrandbits(32):08x}"
        text = schema_text(marker, rng)
        body = {"application": stack.app, "attributesType": type_name, "jsonSchema": text}
        if requested is not None:
            body["version"] = requested
        attempt = Attempt(type_name, requested, marker, text, replica.name, time.monotonic())
        try:
            response = request(replica.url, "POST", "/api/live_activity_schemas", body=body, token=stack.token,
                               timeout=10)
            attempt.status = response.status
            if response.status == 200:
                published = response.json()["schema"]
                attempt.version = published["version"]
                if published["json_schema"] != text:
                    attempt.error = "the 200 echoed another json_schema"
            elif response.status >= 500:
                attempt.error = response.body[:200].decode(errors="replace")
        except OSError as error:
            attempt.error = f"{type(error).__name__}: {error}"
        attempt.ended = time.monotonic()
        with lock:
            scenario.attempts.append(attempt)
        if attempt.status is None or attempt.status == 503:
            time.sleep(0.05)  # an outage: do not spin


class Reader:
    """Keep-alive GETs on one replica."""

    def __init__(self, url: str):
        host, port = url.replace("http://", "").split(":")
        self.host, self.port = host, int(port)
        self.connection = None

    def get(self, target: str, token: str):
        for _ in range(3):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
                self.connection.request("GET", target, headers={"Authorization": f"Api {token}"})
                response = self.connection.getresponse()
                return response.status, response.read()
            except (OSError, http.client.HTTPException):
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
        raise ConnectionError(f"GET {target} failed three times")


def database_rows(stack: Stack, prefix: str) -> list:
    sql = (
        "SELECT coalesce(json_agg(json_build_object('t', v.attributes_type, 'v', v.version, 's', v.json_schema)"
        " ORDER BY v.attributes_type, v.version), '[]') FROM schema_versions v JOIN applications a"
        f" ON a.id = v.application_id WHERE a.code = '{stack.app}' AND v.deleted_at IS NULL"
        f" AND starts_with(v.attributes_type, '{prefix}')"
    )
    return json.loads(stack.psql(sql))


def verify(stack: Stack, scenario: Scenario, live: list) -> dict:
    attempts = scenario.attempts
    acks = [a for a in attempts if a.outcome == "ack"]
    uncertain = {a.marker for a in attempts if a.outcome == "uncertain"}
    figures = {"sent": len(attempts), "acked": len(acks),
               "rejected": sum(a.outcome == "rejected" for a in attempts),
               "uncertain": len(uncertain),
               "bad5xx": sum(1 for a in attempts if a.status is not None and a.status >= 500 and a.status != 503)}
    for a in [a for a in attempts if a.status in (400, 404)][:3]:
        scenario.problems.append(f"unexpected {a.status} for {a.type} v{a.requested}")
    lost, duplicates = {}, []  # lost: (type, version) → why

    # Acknowledged twice for one (type, version): two clients were told they own one version.
    owner = {}
    for a in acks:
        key = (a.type, a.version)
        if key in owner:
            duplicates.append(f"{a.type} v{a.version} acknowledged to {owner[key].marker} and {a.marker}")
        owner[key] = a
        if a.error:
            lost[key] = a.error

    # The database: unique versions; acknowledged content present; nothing unexplained.
    rows = database_rows(stack, scenario.prefix)
    seen_markers = {}
    in_db = {}
    for row in rows:
        key = (row["t"], row["v"])
        if key in in_db:
            duplicates.append(f"{row['t']} v{row['v']} stored twice")
        in_db[key] = row["s"]
        marker = json.loads(row["s"]).get("description", "")
        if marker in seen_markers:
            duplicates.append(f"request {marker} stored as v{seen_markers[marker]} and v{row['v']}")
        seen_markers[marker] = row["v"]
    for key, a in owner.items():
        if in_db.get(key) != a.schema:
            lost[key] = f"acknowledged but {'missing' if key not in in_db else 'different'} in the database"
    unexplained = 0
    unacked_present = 0
    for key, text in in_db.items():
        if key in owner:
            continue
        marker = json.loads(text).get("description", "")
        if marker in uncertain:
            unacked_present += 1
        else:
            unexplained += 1
            scenario.problems.append(f"{key[0]} v{key[1]} is in the database but its request ({marker}) was not acknowledged and did not fail")

    # Every acknowledged version through every live replica, byte for byte.
    for replica in live:
        reader = Reader(replica.url)
        for (type_name, version), a in owner.items():
            target = (f"/api/live_activity_schemas/{urllib.parse.quote(type_name, safe='')}/{version}"
                      f"?application={stack.app}")
            status, body = reader.get(target, stack.token)
            if status != 200 or json.loads(body)["schema"]["json_schema"] != a.schema:
                lost.setdefault((type_name, version), f"GET on {replica.name}: {status} {body[:120]!r}")
        # The list agrees with the database.
        for type_name in scenario.types:
            status, body = reader.get(f"/api/live_activity_schemas?application={stack.app}&attributesType="
                                      f"{urllib.parse.quote(type_name, safe='')}", stack.token)
            listed = sorted(s["version"] for s in json.loads(body)["schemas"]) if status == 200 else None
            stored = sorted(v for (t, v) in in_db if t == type_name)
            if listed != stored:
                scenario.problems.append(f"list of {type_name} on {replica.name} differs from the database")
    scenario.problems += [f"lost {t} v{v}: {why}" for (t, v), why in list(lost.items())[:5]] + duplicates[:5]
    figures.update(lost=len(lost), duplicates=len(duplicates),
                   unacked_present=unacked_present, unexplained=unexplained, reads=len(owner) * len(live))
    return figures


def measure_recovery(scenario: Scenario, affected: set) -> None:
    """Outage: from the first to the last failed request of the affected replicas after the fault.
    Recovery: from the fault to the end of the first write that succeeded after the last failure
    (or, when nothing failed, the first write started after the fault was over)."""
    mine = [a for a in scenario.attempts if a.replica in affected and a.ended >= scenario.fault_started]
    failures = [a for a in mine if a.outcome == "uncertain"]
    if failures:
        scenario.outage_seconds = max(a.ended for a in failures) - min(a.started for a in failures)
        after = max(a.started for a in failures)
    else:
        scenario.outage_seconds = 0.0
        after = scenario.fault_ended
    recovered = [a.ended for a in mine if a.outcome == "ack" and a.started >= after]
    if recovered:
        scenario.recover_seconds = min(recovered) - scenario.fault_started


def run_scenario(stack: Stack, scenario: Scenario, writers: int, warm: float, after: float, settings: dict) -> dict:
    say(f"scenario {scenario.name}: {scenario.replicas} replica(s), {writers} writers, types {scenario.types}")
    live = [stack.add_replica(f"{scenario.name}-r{i}", **settings) for i in range(scenario.replicas)]
    stop, lock = threading.Event(), threading.Lock()
    threads = [threading.Thread(target=writer, args=(stack, scenario, i, stop, lock, live, 0.25), daemon=True)
               for i in range(writers)]
    for thread in threads:
        thread.start()
    time.sleep(warm)
    pids_before = [r.pid for r in live]
    affected = {r.name for r in live} if scenario.name != "kill-9" else {live[0].name}

    if scenario.name == "pg-restart":
        scenario.fault_started = time.monotonic()
        stack.pg_ctl("restart", "-m", "fast")
        scenario.fault_ended = time.monotonic()
    elif scenario.name == "kill-9":
        victim = live[0]
        scenario.fault_started = time.monotonic()
        stack.kill_replica(victim, signal.SIGKILL)
        restart_seconds = stack.start_replica(victim)
        scenario.fault_ended = time.monotonic()
        scenario.notes.append(f"{victim.name} back after {restart_seconds:.2f} s")

    # Keep writing until a write started after the fault ended succeeded, then `after` more seconds.
    if scenario.fault_started is not None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with lock:
                if any(a.outcome == "ack" and a.started >= scenario.fault_ended for a in scenario.attempts
                       if a.replica in affected):
                    break
            time.sleep(0.05)
        else:
            scenario.problems.append("no write succeeded within 60 s after the fault")
    time.sleep(after)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)

    if scenario.name == "pg-restart":
        same = [r.process.poll() is None and r.pid == pid for r, pid in zip(live, pids_before)]
        ready = [request(r.url, "GET", "/readyz", timeout=5).status for r in live]
        scenario.notes.append(f"same processes throughout: {all(same)}; /readyz after: {ready}")
        if not all(same) or any(s != 200 for s in ready):
            scenario.problems.append("the service did not recover by itself after the PostgreSQL restart")
    outage = [a for a in scenario.attempts if a.outcome == "uncertain"]
    if outage:
        kinds = {}
        for a in outage:
            kind = str(a.status) if a.status else a.error.split(":")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
        scenario.notes.append("failed or timed-out requests: " + ", ".join(f"{k} ×{v}" for k, v in sorted(kinds.items())))
    if scenario.fault_started is not None:
        measure_recovery(scenario, affected)
    bad = [a for a in scenario.attempts if a.status is not None and a.status >= 500 and a.status != 503]
    for a in bad[:3]:
        scenario.problems.append(f"{a.status} from {a.replica}: {a.error}")
    figures = verify(stack, scenario, live)
    for replica in live:
        stack.kill_replica(replica, signal.SIGTERM)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small counts (CI)")
    parser.add_argument("--scenarios", default="pg-restart,kill-9,3-replicas")
    args = parser.parse_args()
    writers, warm, after = (4, 1.5, 2.0) if args.quick else (8, 5.0, 10.0)
    names = [n for n in args.scenarios.split(",") if n]

    # fsync on: a durability test should not rely on a cluster that may drop acknowledged commits.
    stack = Stack.start("durability", pg_options="-c fsync=on -c synchronous_commit=on -c full_page_writes=on")
    settings = dict(REGISTRY_HTTP_WORKERS=4, REGISTRY_DB_POOL_SIZE=4, REGISTRY_DB_CONNECT_TIMEOUT_SECONDS=2,
                    REGISTRY_DB_ACQUIRE_TIMEOUT_MS=2000, REGISTRY_LOG_LEVEL="debug")
    replicas = {"pg-restart": 2, "kill-9": 2, "3-replicas": 3}
    results = []
    for number, name in enumerate(names):
        letter = "abc"[number % 3]
        # Type names with SQL metacharacters and non-ASCII, shared by all writers of a scenario.
        prefix = f"Dur{letter}{random.randrange(16**6):06x}"
        types = [f"{prefix}Flight", f"{prefix}Score'; DROP TABLE schema_versions; --", f"{prefix}Ünïcödé_%\\"]
        scenario = Scenario(name, replicas[name], prefix, types)
        results.append((scenario, run_scenario(stack, scenario, writers, warm, after, settings)))

    leaks = log_leaks([r.log_path for r in stack.replicas], [stack.token] + [
        a.marker for scenario, _ in results for a in scenario.attempts[:200]])

    print()
    print(f"Durability under faults ({writers} writers per scenario, explicit versions in 25% of creates, "
          f"PostgreSQL with fsync on)")
    header = ("scenario", "replicas", "sent", "acked", "409", "uncertain", "unacked in db", "lost", "dup",
              "5xx≠503", "outage s", "recover s")
    rows = []
    for scenario, f in results:
        rows.append((scenario.name, str(scenario.replicas), str(f["sent"]), str(f["acked"]), str(f["rejected"]),
                     str(f["uncertain"]), str(f["unacked_present"]), str(f["lost"]), str(f["duplicates"]),
                     str(f["bad5xx"]),
                     "-" if scenario.outage_seconds is None else f"{scenario.outage_seconds:.2f}",
                     "-" if scenario.recover_seconds is None else f"{scenario.recover_seconds:.2f}"))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  " + "  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  " + "  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print("  (uncertain: failed or timed out, outcome unknown to the client; unacked in db: of those, written "
          "anyway — allowed)")
    passed = failed = 0
    for scenario, f in results:
        checks = {
            "acknowledged writes": scenario.problems == [] or f["acked"] > 0,
            "no acknowledged write lost": f["lost"] == 0,
            "no duplicate version": f["duplicates"] == 0,
            "no unexplained row": f["unexplained"] == 0,
            "no 5xx other than 503": f["bad5xx"] == 0,
            "recovered": scenario.fault_started is None or scenario.recover_seconds is not None,
        }
        if scenario.name == "pg-restart":
            checks["recovered without a restart"] = not any("did not recover" in p for p in scenario.problems)
        ok = all(checks.values()) and not scenario.problems
        passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
        print(f"  {scenario.name}: {'ok' if ok else 'FAILED'}; {f['reads']} reads compared; " + "; ".join(scenario.notes))
        for problem in scenario.problems:
            print(f"    - {problem}")
    if leaks:
        failed += 1
        print(f"  service logs contain secrets or body markers: {leaks[:5]}")
    else:
        passed += 1
        print(f"  service logs ({len(stack.replicas)} processes): no token, no body marker")
    closing_line(passed, failed)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
