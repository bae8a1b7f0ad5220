#!/usr/bin/env python3
"""Failover on PostgreSQL streaming replication: nothing acknowledged is lost (synchronous),
and what asynchronous replication loses is counted.

On loopback: a primary A and a streaming standby B (pg_basebackup), two registry replicas on
the multi-host URL `postgresql://A,B/db?target_session_attrs=read-write`, keyed writers
(publish, delete, policy) and readers (cache off on one replica, so reads reach PostgreSQL)
on both. Each run:

  1. `kill -9` A's postmaster; for a moment no primary is reachable (read-only: reads must
     still be answered, from the standby; writes must answer 503);
  2. `pg_ctl promote` B; time until the first successful write;
  3. `pg_rewind` A from B and start it as B's standby (synchronous again in the sync run);
  4. fail back the same way (kill -9 B, promote A, rewind B).

Checks afterwards, on the final primary: every acknowledged publish is there with its text,
every acknowledged delete is deleted, the last acknowledged policy is in force (or a later
request of unknown outcome's); no version number was handed to two publishes; no 5xx but 503;
reads not answered (counted; must be 0 in the sync run except while nothing at all answers);
no version served more than 2 s after its delete was acknowledged. The asynchronous run
reports acknowledged writes lost instead of failing on them.

Then, with the load stopped, standby reads under paused replay (`paused_replay_check`): the
standby serves reads while replay runs; with `pg_wal_replay_pause()` a publish, a delete and a
disable through the registry are never read stale (no 404 for the new version, no 200 for the
deleted or disabled one), every planned read counted; after `pg_wal_replay_resume()` the standby
serves again. Replica 1 allows any lag (`REGISTRY_READ_MAX_LAG_MS=600000`), so the
replay-position rule alone protects it; replica 0 skips the paused standby for its lag. Lists
and the type index are checked the same way: once a replica's follower has read a change, the
paused standby never answers them without it.

Last, writes elsewhere (`writes_elsewhere_check`): with replay running, publishes to a second
application must not send replica 1's reads of the first to the primary for its replay position
(the required position is kept per application); the standby's share is reported.

    python3 Tests/Robustness/failover.py [--quick] [--modes sync,async]

Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from robustlib import binary, closing_line, free_port, request, say

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = "/usr/lib/postgresql/15/bin"
if not os.path.isdir(BIN):
    BIN = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip()


def as_pg(*command: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
    prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    result = subprocess.run(prefix + list(command), capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise RuntimeError(f"{os.path.basename(command[0])} failed: {result.stderr.strip()[-600:]}")
    return result


class Cluster:
    def __init__(self, top: str, name: str):
        self.name, self.port = name, free_port()
        self.data = os.path.join(top, name)
        self.log = os.path.join(top, f"{name}.log")

    # In postgresql.conf, not on the command line: pg_rewind runs the crashed server in
    # single-user mode first, which must keep the WAL it then reads (wal_keep_size); the
    # standby inherits the file through pg_basebackup.
    SETTINGS = ("listen_addresses = '127.0.0.1'\nunix_socket_directories = '/tmp'\nfsync = off\n"
                "wal_log_hints = on\nmax_wal_senders = 10\nhot_standby = on\nwal_keep_size = '512MB'\n"
                "max_connections = 200\n")

    def options(self) -> str:
        return f"-p {self.port}"

    def configure(self) -> None:
        with open(os.path.join(self.data, "postgresql.conf"), "a") as conf:
            conf.write(self.SETTINGS)

    def start(self) -> None:
        as_pg(f"{BIN}/pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60", "-o", self.options(), "start")

    def kill9(self) -> None:
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            pid = int(f.readline())
        os.kill(pid, signal.SIGKILL)
        # The backends notice their postmaster is gone; wait for the port to close.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and as_pg(f"{BIN}/pg_isready", "-h", "127.0.0.1", "-p", str(self.port),
                                                     check=False).returncode == 0:
            time.sleep(0.05)

    def promote(self) -> None:
        as_pg(f"{BIN}/pg_ctl", "-D", self.data, "-w", "-t", "60", "promote")

    def stop(self) -> None:
        as_pg(f"{BIN}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", check=False)

    def sql(self, text: str, db: str = "schema_registry") -> str:
        return as_pg(f"{BIN}/psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                     str(self.port), "-U", "postgres", "-d", db, "-c", text).stdout.strip()

    def conninfo(self) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"

    def follow(self, primary: "Cluster") -> None:
        """Rewinds this (crashed) old primary from `primary` and starts it as its standby. The new
        primary's control file shows its new timeline only after a checkpoint."""
        primary.sql("CHECKPOINT", db="postgres")
        as_pg(f"{BIN}/pg_rewind", "--target-pgdata", self.data, "--source-server", primary.conninfo(),
              "--write-recovery-conf")
        self.start()


@dataclass
class Record:
    kind: str  # publish, delete, policy
    key: str
    target: str
    status: int | None = None
    version: int | None = None
    text: str = ""
    started: float = 0.0
    ended: float = 0.0


@dataclass
class Run:
    mode: str
    records: list = field(default_factory=list)
    reads: int = 0
    unanswered: list = field(default_factory=list)  # (time, status) of reads not answered
    stale: int = 0  # a deleted version served > 2 s after its delete was acknowledged
    absent: list = field(default_factory=list)  # times an acknowledged, never deleted version answered 404
    deleting: set = field(default_factory=set)  # "type/version" of every delete sent or about to be
    promotions: list = field(default_factory=list)
    kills: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def post_keyed(url: str, method: str, path: str, body, token: str, key: str, record: Record, run: Run,
               stop: threading.Event, urls: list) -> None:
    """Sends one write with an Idempotency-Key, retrying on unknown outcomes until definitive."""
    tries = 0
    while True:
        attempt = Record(record.kind, key, record.target, text=record.text, started=time.monotonic())
        try:
            response = request(urls[tries % len(urls)], method, path, body=body, token=token,
                               headers={"Idempotency-Key": key}, timeout=10)
            attempt.status = response.status
            if response.status == 200 and record.kind == "publish":
                attempt.version = response.json()["schema"]["version"]
        except OSError:
            attempt.status = None
        attempt.ended = time.monotonic()
        with run.lock:
            run.records.append(attempt)
        if attempt.status is not None and attempt.status != 503 and attempt.status < 500:
            return
        tries += 1
        if stop.is_set() and tries > 200:
            return
        time.sleep(0.1)


def writer(index: int, urls: list, token: str, app: str, run: Run, stop: threading.Event) -> None:
    rng = random.Random(index)
    sequence = 0
    while not stop.is_set():
        sequence += 1
        type_name = f"Fo{run.mode}{index % 3}"
        marker = f"fo-{run.mode}-w{index}-{sequence}-{rng.getrandbits(32):08x}"
        text = json.dumps({"type": "object", "description": marker,
                           "attributes": {"properties": {"f": {"type": "string"}}}}, separators=(",", ":"))
        body = {"application": app, "attributesType": type_name, "jsonSchema": text}
        record = Record("publish", marker, type_name, text=text)
        post_keyed(urls[0], "POST", "/api/live_activity_schemas", body, token, "k-" + marker, record, run, stop,
                   urls[index % 2:] + urls[:index % 2])
        acked = [r for r in run.records if r.key == "k-" + marker and r.status == 200]
        if acked and sequence % 4 == 0:  # delete every fourth acknowledged version
            version = acked[-1].version
            path = f"/api/live_activity_schemas/{type_name}/{version}?application={app}"
            with run.lock:  # before it is sent: a reader's 404 from then on is no stale absence
                run.deleting.add(f"{type_name}/{version}")
            post_keyed(urls[0], "DELETE", path, None, token, "d-" + marker,
                       Record("delete", "d-" + marker, f"{type_name}/{version}"), run, stop, urls)
        time.sleep(0.02)


def policy_writer(urls: list, token: str, app: str, run: Run, stop: threading.Event) -> None:
    modes = ["none", "backward", "backward_transitive"]
    sequence = 0
    while not stop.is_set():
        sequence += 1
        mode = modes[sequence % 3]
        path = f"/api/live_activity_types/FoPolicy{run.mode}/compatibility_policy?application={app}"
        post_keyed(urls[0], "PUT", path, {"mode": mode, "enforce": "warn"}, token, f"p-{run.mode}-{sequence}",
                   Record("policy", f"p-{run.mode}-{sequence}", mode), run, stop, urls)
        time.sleep(0.1)


def reader(url: str, token: str, app: str, run: Run, stop: threading.Event) -> None:
    rng = random.Random(url)
    while not stop.is_set():
        with run.lock:
            acked = [r for r in run.records[-400:] if r.status == 200 and r.kind in ("publish", "delete")]
        if not acked:
            time.sleep(0.05)
            continue
        chosen = rng.choice(acked)
        if chosen.kind == "publish":
            path = f"/api/live_activity_schemas/{chosen.target}/{chosen.version}?application={app}"
        else:
            path = f"/api/live_activity_schemas/{chosen.target}?application={app}"
        try:
            status = request(url, "GET", path, token=token, timeout=10).status
        except OSError:
            status = None
        now = time.monotonic()
        with run.lock:
            run.reads += 1
            if status not in (200, 404):
                run.unanswered.append((now, status))
            if chosen.kind == "delete" and status == 200 and now - chosen.ended > 2:
                run.stale += 1
            if chosen.kind == "publish" and status == 404:
                if f"{chosen.target}/{chosen.version}" not in run.deleting:
                    run.absent.append(now)
        time.sleep(0.01)


def replica_env(url: str, port: int, cache: bool) -> dict:
    env = dict(os.environ, DATABASE_URL=url, REGISTRY_LISTEN=f"127.0.0.1:{port}",
               REGISTRY_MIGRATIONS_DIR=os.path.join(ROOT, "migrations"), REGISTRY_HTTP_WORKERS="4",
               REGISTRY_DB_CONNECT_TIMEOUT_SECONDS="2", REGISTRY_DB_STATEMENT_TIMEOUT_MS="3000")
    if not cache:  # every read reaches PostgreSQL, the token lookup too
        env["REGISTRY_CACHE_BYTES"] = "0"
        env["REGISTRY_AUTH_CACHE_SECONDS"] = "0"
        # Any lag allowed: only the replay-position rule keeps its standby reads fresh.
        env["REGISTRY_READ_MAX_LAG_MS"] = "600000"
    return env


def wait_streaming(primary: Cluster, sync: bool) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = primary.sql("SELECT coalesce(string_agg(state || '/' || sync_state, ','), '') FROM pg_stat_replication",
                            db="postgres")
        if state.startswith("streaming/" + ("sync" if sync else "async")):
            return
        time.sleep(0.2)
    raise RuntimeError(f"standby of {primary.name} not streaming: {state!r}")


def make_sync(primary: Cluster, sync: bool) -> None:
    value = "*" if sync else ""
    primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = '{value}'", db="postgres")
    primary.sql("SELECT pg_reload_conf()", db="postgres")


def first_write_after(run: Run, instant: float) -> float | None:
    done = [r.ended for r in run.records if r.status == 200 and r.ended >= instant]
    return min(done) - instant if done else None


def one_run(mode: str, quick: bool) -> tuple[dict, list]:
    sync = mode == "sync"
    top = tempfile.mkdtemp(prefix=f"registry-failover-{mode}.")
    os.chmod(top, 0o755)
    if os.getuid() == 0:
        shutil.chown(top, "postgres")
    a, b = Cluster(top, "a"), Cluster(top, "b")
    replicas: list = []
    problems: list = []
    stop = threading.Event()
    try:
        as_pg(f"{BIN}/initdb", "-D", a.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8",
              "--no-sync", "--no-instructions", "--data-checksums")
        a.configure()
        a.start()
        a.sql("CREATE DATABASE schema_registry", db="postgres")
        as_pg(f"{BIN}/pg_basebackup", "-h", "127.0.0.1", "-p", str(a.port), "-U", "postgres", "-D", b.data, "-R",
              "-X", "stream", "--checkpoint=fast")
        b.start()
        make_sync(a, sync)
        wait_streaming(a, sync)
        url = (f"postgresql://postgres@127.0.0.1:{a.port},127.0.0.1:{b.port}/schema_registry"
               "?target_session_attrs=read-write")
        env = replica_env(url, 0, True)
        subprocess.run([binary(), "migrate"], env=env, check=True, capture_output=True, timeout=120)

        def admin(*args):
            return subprocess.run([binary(), "admin", *args], env=env, check=True, capture_output=True, text=True,
                                  timeout=60).stdout.strip()
        account = admin("create-account", f"failover-{mode}")
        app = admin("create-application", "--account", account, "--name", "failover app")
        other_app = admin("create-application", "--account", account, "--name", "failover other app")
        token = admin("issue-token", "--account", account)
        for index, cache in enumerate((True, False)):
            port = free_port()
            log = open(os.path.join(top, f"replica{index}.log"), "ab")
            process = subprocess.Popen([binary(), "serve"], env=replica_env(url, port, cache), stdout=log,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            replicas.append((process, f"http://127.0.0.1:{port}"))
        for _, replica_url in replicas:
            deadline = time.monotonic() + 60
            while not _ready(replica_url):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"replica did not become ready; see {top}")
                time.sleep(0.1)
        urls = [u for _, u in replicas]
        run = Run(mode)
        threads = [threading.Thread(target=writer, args=(i, urls, token, app, run, stop), daemon=True) for i in range(4)]
        threads.append(threading.Thread(target=policy_writer, args=(urls, token, app, run, stop), daemon=True))
        threads += [threading.Thread(target=reader, args=(u, token, app, run, stop), daemon=True)
                    for u in urls for _ in range(2)]
        for t in threads:
            t.start()
        settle = 3 if quick else 10
        window = 2.0 if quick else 4.0  # no primary at all: read-only
        time.sleep(settle)
        read_only_seen = []
        for old, new in ((a, b), (b, a)):
            run.kills.append(time.monotonic())
            old.kill9()
            time.sleep(window / 2)
            for _, replica_url in replicas:
                try:
                    read_only_seen.append(request(replica_url, "GET", "/readyz", timeout=5).json().get("status"))
                except (OSError, ValueError):
                    read_only_seen.append(None)
            time.sleep(window / 2)
            new.promote()
            run.promotions.append(time.monotonic())
            time.sleep(settle)
            old.follow(new)
            if sync:
                make_sync(new, True)
            wait_streaming(new, sync)
            time.sleep(settle)
        stop.set()
        for t in threads:
            t.join(timeout=120)
        load_standby = standby_figures(urls)
        primary = a
        figures, found = verify(run, primary, app)
        figures["standby_reads_under_load"] = load_standby
        figures["read_only_probes"] = read_only_seen
        paused, paused_problems = paused_replay_check(a, b, urls, token, app, mode)
        figures["paused_replay"] = paused
        found += paused_problems
        elsewhere, elsewhere_problems = writes_elsewhere_check(urls, token, app, other_app, mode, quick)
        figures["writes_elsewhere"] = elsewhere
        found += elsewhere_problems
        problems += found
        if any(s != "read-only" for s in read_only_seen):
            problems.append(f"/readyz during the window without a primary said {read_only_seen}")
        for process, _ in replicas:
            if process.poll() is not None:
                problems.append("a replica exited")
        return figures, problems
    finally:
        stop.set()
        for process, _ in replicas:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        a.stop()
        b.stop()
        if os.environ.get("STACK_KEEP") != "1":
            shutil.rmtree(top, ignore_errors=True)
        else:
            say(f"kept {top}")


STANDBY_METRIC = re.compile(r'^registry_db_standby_(eligible|skipped)_reads_total\{(?:served_by|reason)="([a-z_]+)"\} (\S+)$')


def standby_figures(urls: list) -> list:
    """Each replica's standby-read counters: served by standby/primary, skipped by reason."""
    figures = []
    for url in urls:
        counts: dict = {}
        for line in request(url, "GET", "/metrics", timeout=5).body.decode().splitlines():
            match = STANDBY_METRIC.match(line)
            if match:
                counts[("served_" if match[1] == "eligible" else "skipped_") + match[2]] = int(float(match[3]))
        figures.append(counts)
    return figures


def standby_delta(before: list, after: list) -> list:
    """What each replica's counters gained, zeros left out."""
    return [{k: a[k] - b.get(k, 0) for k in a if a[k] != b.get(k, 0)} for b, a in zip(before, after)]


def served_by_standby(delta: list) -> int:
    return sum(d.get("served_standby", 0) for d in delta)


def paused_replay_check(primary: Cluster, standby: Cluster, urls: list, token: str, app: str, mode: str) -> tuple[dict, list]:
    """A standby whose replay is paused (pg_wal_replay_pause) never serves a stale absence or state.

    Versions are published with replay running and read through both replicas (the standby must
    serve some: the rule is not "always the primary"). Replay is paused; through the registry a
    version is published, one deleted and one disabled. Then, read through both replicas: the
    new version must be found at once on both (a standby's "not found" is always confirmed on
    the primary); `latest`, the deleted and the disabled version must be right at once on the
    replica that made the change (it reads its own writes) and, on the other, from the time its
    change follower has read the feed (1 s without notifications; we wait 1.5 s). Every read
    is counted; fewer than planned fails. Replay is resumed and the standby must serve again.
    """
    problems: list = []
    kind = f"FoPaused{mode}"

    def publish(url: str, marker: str) -> int:
        text = json.dumps({"type": "object", "description": marker,
                           "attributes": {"properties": {"f": {"type": "string"}}}}, separators=(",", ":"))
        response = request(url, "POST", "/api/live_activity_schemas", token=token,
                           body={"application": app, "attributesType": kind, "jsonSchema": text})
        if response.status != 200:
            raise RuntimeError(f"publish answered {response.status}: {response.body[:200]!r}")
        return response.json()["schema"]["version"]

    def status(url: str, version) -> int:
        return request(url, "GET", f"/api/live_activity_schemas/{kind}/{version}?application={app}", token=token).status

    def latest(url: str):
        response = request(url, "GET", f"/api/live_activity_schemas/{kind}/latest?application={app}", token=token)
        return response.json()["schema"]["version"] if response.status == 200 else response.status

    def listed(url: str):
        response = request(url, "GET", f"/api/live_activity_schemas?application={app}&attributesType={kind}", token=token)
        return [s["version"] for s in response.json()["schemas"]] if response.status == 200 else response.status

    def newest(url: str):
        response = request(url, "GET", f"/api/live_activity_types?application={app}&prefix={kind}", token=token)
        return [t["newest_version"] for t in response.json()["types"]] if response.status == 200 else response.status

    reads = {"planned": 0, "done": 0, "stale": []}

    def expect(label: str, got, wanted) -> None:
        reads["done"] += 1
        if got != wanted:
            reads["stale"].append(f"{label}: {got} (expected {wanted})")

    versions = [publish(urls[i % 2], f"paused-{mode}-warm-{i}") for i in range(6)]
    time.sleep(1.5)  # both followers have read past every warm-up publish
    before = standby_figures(urls)
    for _ in range(5):
        for url in urls:
            for version in versions:
                reads["planned"] += 1
                expect(f"warm {version}", status(url, version), 200)
    warm = standby_delta(before, standby_figures(urls))
    if served_by_standby(warm) == 0:
        problems.append(f"with replay running the standby served no read: {warm}")

    standby.sql("SELECT pg_wal_replay_pause()", db="postgres")
    deadline = time.monotonic() + 10
    while standby.sql("SELECT pg_get_wal_replay_pause_state()", db="postgres") != "paused":
        if time.monotonic() > deadline:
            raise RuntimeError("replay did not pause")
        time.sleep(0.05)
    before = standby_figures(urls)
    try:
        deleted, disabled = versions[0], versions[1]
        new = publish(urls[0], f"paused-{mode}-new")
        for url in urls:  # at once, on both: absence is confirmed on the primary
            reads["planned"] += 1
            expect(f"new {new} at once via {url}", status(url, new), 200)
        reads["planned"] += 1
        expect("latest at once via the publishing replica", latest(urls[0]), new)
        response = request(urls[0], "DELETE", f"/api/live_activity_schemas/{kind}/{deleted}?application={app}", token=token)
        if response.status != 200:
            raise RuntimeError(f"delete answered {response.status}")
        reads["planned"] += 1
        expect(f"deleted {deleted} at once via the deleting replica", status(urls[0], deleted), 404)
        response = request(urls[1], "POST", f"/api/live_activity_schemas/{kind}/{disabled}:disable?application={app}",
                           token=token, body={"reason": "paused replay check"})
        if response.status != 200:
            raise RuntimeError(f"disable answered {response.status}")
        reads["planned"] += 1
        expect(f"disabled {disabled} at once via the disabling replica", status(urls[1], disabled), 404)
        time.sleep(1.5)  # each follower has read the feed past both changes
        # Lists and the type index: what each replica has seen, never what the paused
        # standby still shows (the new version missing, the deleted and disabled ones listed).
        listed_now = sorted([new] + versions[2:], reverse=True)
        for _ in range(10):
            for url in urls:
                reads["planned"] += 6
                expect(f"list via {url}", listed(url), listed_now)
                expect(f"type index via {url}", newest(url), [new])
                expect(f"new {new} via {url}", status(url, new), 200)
                expect(f"latest via {url}", latest(url), new)
                expect(f"deleted {deleted} via {url}", status(url, deleted), 404)
                expect(f"disabled {disabled} via {url}", status(url, disabled), 404)
            for url in urls:
                for version in versions[2:]:
                    reads["planned"] += 1
                    expect(f"kept {version} via {url}", status(url, version), 200)
        paused = standby_delta(before, standby_figures(urls))
    finally:
        standby.sql("SELECT pg_wal_replay_resume()", db="postgres")
    # Replica 0 skips the paused standby for its lag; replica 1, which allows any lag, because
    # its replay position is behind the change feed this replica has seen.
    if paused[0].get("skipped_lag", 0) == 0 or paused[1].get("skipped_behind", 0) == 0:
        problems.append(f"while replay was paused the replicas did not skip the standby for lag and position: {paused}")
    deadline = time.monotonic() + 30
    while standby.sql("SELECT pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn()", db="postgres") != "t":
        if time.monotonic() > deadline:
            problems.append("replay did not catch up after resuming")
            break
        time.sleep(0.1)
    time.sleep(1.5)
    before = standby_figures(urls)
    for _ in range(5):
        for url in urls:
            for version in versions[2:]:
                reads["planned"] += 1
                expect(f"resumed {version}", status(url, version), 200)
    resumed = standby_delta(before, standby_figures(urls))
    if served_by_standby(resumed) == 0:
        problems.append(f"after replay resumed the standby served no read: {resumed}")
    if reads["done"] < reads["planned"] or reads["planned"] < 150:
        problems.append(f"only {reads['done']} of {reads['planned']} planned reads ran")
    if reads["stale"]:
        problems.append(f"{len(reads['stale'])} stale reads with replay paused: {reads['stale'][:5]}")
    figures = {"reads": reads["done"], "stale": len(reads["stale"]), "warm": warm, "paused": paused, "resumed": resumed}
    return figures, problems


def writes_elsewhere_check(urls: list, token: str, app: str, other_app: str, mode: str, quick: bool) -> tuple[dict, list]:
    """Writes to another application do not hold back standby reads of this one.

    With replay running, one thread publishes to a second application through replica 0 while
    both replicas read this application's versions (cache misses on replica 1, whose cache is
    off). The required replay position is kept per application: replica 1, which makes no
    writes, must skip the standby for `behind` on none of these reads, and the standby must
    answer most of them; replica 0 reads its own writes from the primary (own writes are
    followed per process), which it counts as `own_write`.
    """
    problems: list = []
    kind = f"FoPaused{mode}"
    other_kind = f"FoElsewhere{mode}"
    stop = threading.Event()
    published = [0]

    def publish_elsewhere() -> None:
        while not stop.is_set():
            text = json.dumps({"type": "object", "description": f"elsewhere-{published[0]}",
                               "attributes": {"properties": {"f": {"type": "string"}}}}, separators=(",", ":"))
            response = request(urls[0], "POST", "/api/live_activity_schemas", token=token,
                               body={"application": other_app, "attributesType": other_kind, "jsonSchema": text})
            if response.status == 200:
                published[0] += 1

    listed = request(urls[1], "GET", f"/api/live_activity_schemas?application={app}&attributesType={kind}", token=token)
    versions = [s["version"] for s in listed.json()["schemas"]]
    time.sleep(1.5)
    before = standby_figures(urls)
    writer_thread = threading.Thread(target=publish_elsewhere, daemon=True)
    writer_thread.start()
    reads = 0
    deadline = time.monotonic() + (3 if quick else 10)
    while time.monotonic() < deadline:
        for url in urls:
            for version in versions:
                if request(url, "GET", f"/api/live_activity_schemas/{kind}/{version}?application={app}",
                           token=token).status != 200:
                    problems.append(f"writes elsewhere: {kind} {version} was not found via {url}")
                reads += 1
            request(url, "GET", f"/api/live_activity_schemas?application={app}&attributesType={kind}", token=token)
            reads += 1
    stop.set()
    writer_thread.join(timeout=30)
    delta = standby_delta(before, standby_figures(urls))
    if published[0] == 0:
        problems.append("writes elsewhere: no publish to the other application succeeded")
    if delta[1].get("skipped_behind", 0) != 0:
        problems.append(f"writes elsewhere held back replica 1's standby reads of this application: {delta[1]}")
    eligible = delta[1].get("served_standby", 0) + delta[1].get("served_primary", 0)
    if eligible == 0 or delta[1].get("served_standby", 0) * 2 < eligible:
        problems.append(f"writes elsewhere: the standby answered under half of replica 1's reads: {delta[1]}")
    return {"reads": reads, "published_elsewhere": published[0], "delta": delta}, problems


def _ready(url: str) -> bool:
    try:
        return request(url, "GET", "/readyz", timeout=2).status == 200
    except OSError:
        return False


def verify(run: Run, primary: Cluster, app: str) -> tuple[dict, list]:
    problems = []
    rows = json.loads(primary.sql(
        "SELECT coalesce(json_agg(json_build_object('t', v.attributes_type, 'v', v.version, 's', v.json_schema,"
        " 'd', v.deleted_at IS NOT NULL)), '[]') FROM schema_versions v JOIN applications a"
        f" ON a.id = v.application_id WHERE a.code = '{app}'"))
    stored = {(r["t"], r["v"]): r for r in rows}
    acked_publishes = [r for r in run.records if r.kind == "publish" and r.status == 200]
    by_key: dict = {}
    for r in acked_publishes:
        by_key.setdefault(r.key, set()).add(r.version)
    lost = 0
    handed: dict = {}
    for key, versions in by_key.items():
        text = next(r.text for r in acked_publishes if r.key == key)
        target = next(r.target for r in acked_publishes if r.key == key)
        if len(versions) > 1:
            problems.append(f"{key} acknowledged as versions {sorted(versions)}")
        for version in versions:
            handed.setdefault((target, version), set()).add(key)
            row = stored.get((target, version))
            if row is None or (row["s"] is not None and row["s"] != text):
                lost += 1
    twice = sum(1 for keys in handed.values() if len(keys) > 1)
    deletes = [r for r in run.records if r.kind == "delete" and r.status == 200]
    lost_deletes = 0
    for r in deletes:
        target, version = r.target.rsplit("/", 1)
        row = stored.get((target, int(version)))
        if row is not None and not row["d"]:
            lost_deletes += 1
    policies = [r for r in run.records if r.kind == "policy"]
    acked_policies = [r for r in policies if r.status == 200]
    policy_lost = 0
    if acked_policies:
        last = max(acked_policies, key=lambda r: r.ended)
        allowed = {last.target} | {r.target for r in policies if r.started > last.started and r.status != 200}
        now = primary.sql(
            "SELECT p.mode FROM compatibility_policies p JOIN applications a ON a.id = p.application_id"
            f" WHERE a.code = '{app}' AND p.attributes_type = 'FoPolicy{run.mode}'") or "?"
        if now not in allowed:
            policy_lost = 1
    bad5xx = sum(1 for r in run.records if r.status is not None and r.status >= 500 and r.status != 503)
    answered_503 = sum(1 for r in run.records if r.status == 503)
    first_writes = [first_write_after(run, p) for p in run.promotions]
    unanswered_outside = [t for t, _ in run.unanswered
                          if not any(k <= t <= p + 3 for k, p in zip(run.kills, run.promotions))]
    figures = {
        "writes": len(run.records), "acked_publishes": len(by_key), "acked_deletes": len(deletes),
        "acked_policies": len(acked_policies), "503": answered_503, "bad5xx": bad5xx,
        "lost_publishes": lost, "lost_deletes": lost_deletes, "lost_policy": policy_lost,
        "versions_twice": twice, "reads": run.reads, "reads_unanswered": len(run.unanswered),
        "reads_unanswered_outside_failover": len(unanswered_outside), "stale_deleted_reads": run.stale,
        "stale_absent_reads": len(run.absent),
        "stale_absent_after_kill_s": [round(t - max([k for k in run.kills if k <= t], default=t), 2) for t in run.absent], "unanswered_statuses": sorted({str(s) for _, s in run.unanswered}),
        "promotion_to_first_write_s": [round(s, 2) if s is not None else None for s in first_writes],
    }
    if bad5xx:
        problems.append(f"{bad5xx} answers were 5xx other than 503")
    if any(s is None for s in first_writes):
        problems.append("no write succeeded after a promotion")
    if run.absent and run.mode == "sync":
        problems.append(f"{len(run.absent)} reads answered 404 for an acknowledged version")
    if run.stale:
        problems.append(f"{run.stale} reads served a version deleted more than 2 s before")
    if run.mode == "sync":
        if lost or lost_deletes or policy_lost:
            problems.append(f"synchronous replication lost acknowledged writes: {lost} publishes, "
                            f"{lost_deletes} deletes, {policy_lost} policy")
        if twice:
            problems.append(f"{twice} version numbers handed to two publishes")
        if run.unanswered:
            problems.append(f"{len(run.unanswered)} of {run.reads} reads not answered")
    return figures, problems


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--modes", default="sync,async")
    args = parser.parse_args()
    passed = failed = 0
    for mode in args.modes.split(","):
        started = time.monotonic()
        try:
            figures, problems = one_run(mode, args.quick)
        except Exception as error:  # a setup failure is this run's failure, with its reason
            figures, problems = {}, [f"{type(error).__name__}: {error}"]
        print(f"  {mode}: {json.dumps(figures)} ({time.monotonic() - started:.0f} s)")
        for problem in problems:
            print(f"    problem: {problem}")
        if problems:
            failed += 1
        else:
            passed += 1
    closing_line(passed, failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
