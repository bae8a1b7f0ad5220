#!/usr/bin/env python3
"""Durability under faults: nothing acknowledged is lost or duplicated.

While writer threads publish schema versions (next-free and explicit) to a few shared types
through every replica, each scenario injects one fault:

  a. pg-restart   PostgreSQL is restarted (`pg_ctl restart -m fast`) under load; the replicas must
                  answer 503 (never another 5xx) during the outage and recover by themselves
                  (same processes, /readyz back to 200).
     pg-outage    the same with PostgreSQL down for a while (1 s, 3 s without --quick).
  b. kill-9       one replica is killed with SIGKILL and started again.
  c. 3-replicas   three replicas write the same types at once.
     deletes      a version deleted through one replica stops being served by another that had
                  it cached within 2 s, also right after a PostgreSQL restart.

When the service supports Idempotency-Key, half the writers send one and retry every request
whose outcome they do not know (failure, timeout, 503) until they get a definitive answer: each
must then be published exactly once.

Afterwards, per scenario: every create that got a 200 is read back through every live replica
(GET, `json_schema` compared byte for byte with what was sent) and found in the database with
the same content; versions per type are unique; a row that was never acknowledged is allowed
only when its request failed or timed out (its outcome was unknown to the client). The table
shows requests sent, acknowledged, lost (must be 0), duplicates (must be 0), 5xx other than 503
(must be 0) and seconds to recover. Service logs are checked for the token and body markers.

    python3 Tests/Robustness/durability.py [--quick] [--scenarios pg-restart,pg-outage,kill-9,3-replicas,deletes]

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
    key: str | None = None  # Idempotency-Key, the same on every retry of one request
    replayed: bool = False  # answered with Idempotent-Replayed: true

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


def send(stack: Stack, replica, attempt: Attempt, body: dict) -> None:
    headers = {"Idempotency-Key": attempt.key} if attempt.key else None
    try:
        response = request(replica.url, "POST", "/api/live_activity_schemas", body=body, token=stack.token,
                           headers=headers, timeout=10)
        attempt.status = response.status
        attempt.replayed = response.headers.get("idempotent-replayed") == "true"
        if response.status == 200:
            published = response.json()["schema"]
            attempt.version = published["version"]
            if published["json_schema"] != attempt.schema:
                attempt.error = "the 200 echoed another json_schema"
        elif response.status >= 500:
            attempt.error = response.body[:200].decode(errors="replace")
    except OSError as error:
        attempt.error = f"{type(error).__name__}: {error}"
    attempt.ended = time.monotonic()


def writer(stack: Stack, scenario: Scenario, index: int, stop: threading.Event, lock: threading.Lock,
           live: list, explicit_share: float, keyed: bool) -> None:
    """Publishes until `stop`. A keyed writer sends an Idempotency-Key and retries a request whose
    outcome it does not know (failure, timeout, 503) with the same key and body, on the next
    replica, until it gets a definitive answer (at most 15 s after `stop`)."""
    rng = random.Random(zlib.crc32(scenario.name.encode()) * 1000 + index)
    sequence = 0
    while not stop.is_set():
        sequence += 1
        type_name = rng.choice(scenario.types)
        requested = rng.randint(1, 400) if rng.random() < explicit_share else None
        marker = f"durability-{scenario.name}-w{index}-{sequence}-{rng.getrandbits(32):08x}"
        text = schema_text(marker, rng)
        body = {"application": stack.app, "attributesType": type_name, "jsonSchema": text}
        if requested is not None:
            body["version"] = requested
        for retry in range(1000):
            replica = live[(index + sequence + retry) % len(live)]
            attempt = Attempt(type_name, requested, marker, text, replica.name, time.monotonic(),
                              key="k-" + marker.removeprefix("durability-") if keyed else None)
            send(stack, replica, attempt, body)
            with lock:
                scenario.attempts.append(attempt)
            if attempt.outcome != "uncertain":
                break
            time.sleep(0.05)  # an outage: do not spin
            if not keyed or (stop.is_set() and time.monotonic() - attempt.started > 15):
                break


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
    """Compares what clients were told with the database and with what every replica serves.
    A request is one create as the client sees it: one attempt, or a keyed one with its retries."""
    attempts = scenario.attempts
    requests = {}
    for a in attempts:
        requests.setdefault(a.marker, []).append(a)
    acked = {m: [a for a in group if a.outcome == "ack"] for m, group in requests.items()}
    acked = {m: group for m, group in acked.items() if group}
    # Never answered definitively: written or not, the client cannot know; allowed in the database.
    unknown = {m for m, group in requests.items() if all(a.outcome == "uncertain" for a in group)}
    keyed = {m for m, group in requests.items() if group[0].key}
    figures = {"sent": len(attempts), "requests": len(requests), "acked": len(acked),
               "rejected": sum(1 for g in requests.values() if g[-1].outcome == "rejected"),
               "uncertain": len(unknown),
               "retried": sum(1 for m in keyed if len(requests[m]) > 1),
               "replayed": sum(1 for a in attempts if a.replayed),
               "bad5xx": sum(1 for a in attempts if a.status is not None and a.status >= 500 and a.status != 503)}
    for a in [a for a in attempts if a.status in (400, 404)][:3]:
        scenario.problems.append(f"unexpected {a.status} for {a.type} v{a.requested}")
    lost, duplicates = {}, []  # lost: (type, version) → why

    # One version per request, one request per version.
    owner = {}
    for marker, group in acked.items():
        versions = {a.version for a in group}
        if len(versions) > 1:
            duplicates.append(f"request {marker} acknowledged as versions {sorted(versions)}")
        first = group[0]
        key = (first.type, first.version)
        if key in owner:
            duplicates.append(f"{first.type} v{first.version} acknowledged to {owner[key].marker} and {marker}")
        owner[key] = first
        for a in group:
            if a.error:
                lost[key] = a.error

    # The database: unique versions; acknowledged content present; nothing unexplained.
    rows = database_rows(stack, scenario.prefix)
    stored_as = {}
    in_db = {}
    for row in rows:
        key = (row["t"], row["v"])
        if key in in_db:
            duplicates.append(f"{row['t']} v{row['v']} stored twice")
        in_db[key] = row["s"]
        marker = json.loads(row["s"]).get("description", "")
        if marker in stored_as:
            duplicates.append(f"request {marker} stored as v{stored_as[marker]} and v{row['v']}")
        stored_as[marker] = row["v"]
    for key, a in owner.items():
        if in_db.get(key) != a.schema:
            lost[key] = f"acknowledged but {'missing' if key not in in_db else 'different'} in the database"
    unexplained = 0
    unacked_present = 0
    for key, text in in_db.items():
        if key in owner:
            continue
        marker = json.loads(text).get("description", "")
        if marker in unknown:
            unacked_present += 1
        else:
            unexplained += 1
            why = "was rejected" if marker in requests else "was never sent"
            scenario.problems.append(f"{key[0]} v{key[1]} is in the database but its request ({marker}) {why}")

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
                   unacked_present=unacked_present, unexplained=unexplained, reads=len(owner) * len(live),
                   keyed_unknown=len(unknown & keyed))
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


def run_scenario(stack: Stack, scenario: Scenario, writers: int, warm: float, after: float, settings: dict,
                 idempotency: bool, outage: float) -> dict:
    say(f"scenario {scenario.name}: {scenario.replicas} replica(s), {writers} writers, types {scenario.types}")
    live = [stack.add_replica(f"{scenario.name}-r{i}", **settings) for i in range(scenario.replicas)]
    stop, lock = threading.Event(), threading.Lock()
    # With Idempotency-Key support, even-numbered writers send a key and retry unknown outcomes.
    threads = [threading.Thread(target=writer, args=(stack, scenario, i, stop, lock, live, 0.25,
                                                     idempotency and i % 2 == 0), daemon=True)
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
    elif scenario.name == "pg-outage":
        # Down for `outage` seconds, then started again with the options it had.
        options = stack.postmaster_options()
        scenario.fault_started = time.monotonic()
        stack.pg_ctl("stop", "-m", "fast")
        time.sleep(outage)
        stack.pg_ctl("start", "-l", f"{stack.dir}/pgrun/postgres.log", "-o", options)
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
        thread.join(timeout=30)  # keyed writers finish their retries (at most 15 s)

    if scenario.name.startswith("pg-"):
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


def delete_visibility(stack: Stack, settings: dict, rounds: int) -> tuple:
    """Deletes through one replica while the other has the version cached (caches are
    invalidated across replicas from the change feed): how long the other one still serves it, before
    and right after a PostgreSQL restart (while its listener reconnects). Returns the worst
    delays in seconds (before, after) and problems."""
    a, b = stack.add_replica("delete-a", **settings), stack.add_replica("delete-b", **settings)
    problems = []

    def one(label: str) -> float | None:
        name = f"Delete{label}{random.randrange(16**8):08x}"
        body = {"application": stack.app, "attributesType": name, "jsonSchema": '{"type":"object"}'}
        if request(a.url, "POST", "/api/live_activity_schemas", body=body, token=stack.token).status != 200:
            return None
        path = f"/api/live_activity_schemas/{name}/1?application={stack.app}"
        for target in (path, path.replace("/1?", "/1/form?")):  # cached on b
            request(b.url, "GET", target, token=stack.token)
        if request(a.url, "DELETE", path, token=stack.token).status != 200:
            return None
        deleted = time.monotonic()
        while time.monotonic() - deleted < 10:
            if all(request(b.url, "GET", t, token=stack.token).status == 404
                   for t in (path, path.replace("/1?", "/1/form?"))):
                return time.monotonic() - deleted
            time.sleep(0.005)
        problems.append(f"{name} v1 still served by {b.name} 10 s after its deletion")
        return 10.0

    before = [d for d in (one("Before") for _ in range(rounds)) if d is not None]
    stack.pg_ctl("restart", "-m", "fast")
    after, started = [], time.monotonic()
    while time.monotonic() - started < 3:
        try:
            delay = one("After")
        except OSError:
            delay = None
        if delay is not None:
            after.append(delay)
        else:
            time.sleep(0.05)  # still reconnecting (503)
    for replica in (a, b):
        stack.kill_replica(replica, signal.SIGTERM)
    if not before or not after:
        problems.append("no delete round completed")
    return max(before, default=None), max(after, default=None), len(before) + len(after), problems


def supports_idempotency(stack: Stack, settings: dict) -> bool:
    """Whether Create honours Idempotency-Key: the same key and body twice is one version."""
    replica = stack.add_replica("probe", **settings)
    body = {"application": stack.app, "attributesType": "DurabilityProbe", "jsonSchema": '{"type":"object"}'}
    answers = [request(replica.url, "POST", "/api/live_activity_schemas", body=body, token=stack.token,
                       headers={"Idempotency-Key": "durability-probe"}) for _ in range(2)]
    stack.kill_replica(replica, signal.SIGTERM)
    return all(a.status == 200 for a in answers) and answers[0].body == answers[1].body


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small counts (CI)")
    parser.add_argument("--scenarios", default="pg-restart,pg-outage,kill-9,3-replicas,deletes")
    args = parser.parse_args()
    writers, warm, after, outage = (4, 1.5, 2.0, 1.0) if args.quick else (8, 5.0, 10.0, 3.0)
    names = [n for n in args.scenarios.split(",") if n]

    # fsync on: a durability test should not rely on a cluster that may drop acknowledged commits.
    stack = Stack.start("durability", pg_options="-c fsync=on -c synchronous_commit=on -c full_page_writes=on")
    settings = dict(REGISTRY_HTTP_WORKERS=4, REGISTRY_DB_POOL_SIZE=4, REGISTRY_DB_CONNECT_TIMEOUT_SECONDS=2,
                    REGISTRY_DB_ACQUIRE_TIMEOUT_MS=2000, REGISTRY_LOG_LEVEL="debug")
    idempotency = supports_idempotency(stack, settings)
    replicas = {"pg-restart": 2, "pg-outage": 2, "kill-9": 2, "3-replicas": 3}
    results = []
    for number, name in enumerate(n for n in names if n != "deletes"):
        # Type names with SQL metacharacters and non-ASCII, shared by all writers of a scenario.
        prefix = f"Dur{number}{random.randrange(16**6):06x}"
        types = [f"{prefix}Flight", f"{prefix}Score'; DROP TABLE schema_versions; --", f"{prefix}Ünïcödé_%\\"]
        scenario = Scenario(name, replicas[name], prefix, types)
        results.append((scenario, run_scenario(stack, scenario, writers, warm, after, settings, idempotency, outage)))

    deletes = delete_visibility(stack, settings, 5 if args.quick else 20) if "deletes" in names else None

    # Every body carried a "durability-…" marker; none may reach a log, nor may the token.
    leaks = log_leaks([r.log_path for r in stack.replicas], [stack.token, "durability-"])

    print()
    print(f"Durability under faults ({writers} writers per scenario through every replica, explicit versions in "
          f"25% of creates, PostgreSQL with fsync on; "
          + ("half the writers send an Idempotency-Key and retry unknown outcomes)" if idempotency else
             "the service does not support Idempotency-Key: no retries)"))
    header = ("scenario", "replicas", "requests", "sent", "acked", "409", "unknown", "unacked in db", "retried",
              "replayed", "lost", "dup", "5xx≠503", "outage s", "recover s")
    rows = []
    for scenario, f in results:
        rows.append((scenario.name, str(scenario.replicas), str(f["requests"]), str(f["sent"]), str(f["acked"]),
                     str(f["rejected"]), str(f["uncertain"]), str(f["unacked_present"]), str(f["retried"]),
                     str(f["replayed"]), str(f["lost"]), str(f["duplicates"]), str(f["bad5xx"]),
                     "-" if scenario.outage_seconds is None else f"{scenario.outage_seconds:.2f}",
                     "-" if scenario.recover_seconds is None else f"{scenario.recover_seconds:.2f}"))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  " + "  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  " + "  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print("  requests: creates as clients see them; sent: HTTP requests, retries included; unknown: no definitive\n"
          "  answer (failed, timed out, 503) — may be written (unacked in db) and that is allowed; retried: keyed\n"
          "  requests that needed a retry; replayed: answers marked Idempotent-Replayed")
    passed = failed = 0
    for scenario, f in results:
        checks = {
            "acknowledged writes": f["acked"] > 0,
            "no acknowledged write lost": f["lost"] == 0,
            "no duplicate version": f["duplicates"] == 0,
            "no unexplained row": f["unexplained"] == 0,
            "no 5xx other than 503": f["bad5xx"] == 0,
            "recovered": scenario.fault_started is None or scenario.recover_seconds is not None,
            "keyed requests resolved": f["keyed_unknown"] == 0,
        }
        if f["keyed_unknown"]:
            scenario.problems.append(f"{f['keyed_unknown']} keyed requests never got a definitive answer")
        ok = all(checks.values()) and not scenario.problems
        passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
        print(f"  {scenario.name}: {'ok' if ok else 'FAILED'}; {f['reads']} reads compared; " + "; ".join(scenario.notes))
        for problem in scenario.problems:
            print(f"    - {problem}")
    if deletes is not None:
        worst_before, worst_after, count, problems = deletes
        bound = 2.0
        ok = not problems and worst_before is not None and worst_after is not None \
            and worst_before <= bound and worst_after <= bound
        passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
        shown = lambda d: "-" if d is None else f"{d:.3f} s"
        print(f"  deletes: {'ok' if ok else 'FAILED'}; {count} versions deleted on one replica while cached on "
              f"another: served there at most {shown(worst_before)} after the delete, {shown(worst_after)} right "
              f"after a PostgreSQL restart (bound {bound} s)")
        for problem in problems:
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
