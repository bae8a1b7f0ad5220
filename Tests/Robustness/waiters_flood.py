#!/usr/bin/env python3
"""Long-poll flood: change-feed waiters from several loopback addresses, past every waiting
budget and past the connection limit, while another address measures the probes and a read.

The replica runs with the default connection limits (1000, 256 per address), so the waiting
budgets are their defaults too (250, 64 per address). Five addresses (127.0.0.2-6) keep 244
long polls each going (1,220, as in the report that found waiters starving everyone), and a
gateway address (127.0.0.7) 200, past its waiting budget and under its connection limit, so
that its own probes find the connections its waiters may not take. A refused waiter honours
`Retry-After` (1-2 s) and comes back; an answered one polls again with its new cursor. Halfway
through, one publish wakes every parked waiter at once.

  probes     from 127.0.0.9 (and from the gateway address itself): /healthz, /metrics and a
             list, one after another for the whole flood; none may fail or time out (5 s);
             p50/p99/max are printed
  budget     registry_waiting_requests reaches 250 and never more, no address with more than 64
             waiting, every refusal a 503 with Retry-After: 1 and a closed connection
  wake       the publish answers every parked waiter with its event
  memory     peak RSS under 256 MB, RSS 10 s after the burst under 96 MB (printed)

    python3 Tests/Robustness/waiters_flood.py [--quick]

--quick (CI) floods for 20 s (60 s otherwise). Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import errno
import heapq
import itertools
import json
import random
import resource
import selectors
import socket
import statistics
import threading
import time

from robustlib import Stack, closing_line, request, rss_mb, say

RESULTS: list = []
FLOODING = [f"127.0.0.{n}" for n in range(2, 7)]
GATEWAY = "127.0.0.7"
MEASURING = "127.0.0.9"
PER_FLOODING, PER_GATEWAY = 244, 200
WAITING_BUDGET, WAITING_PER_ADDRESS = 250, 64
PROBE_TIMEOUT = 5.0
PEAK_RSS_LIMIT_MB, AFTER_RSS_LIMIT_MB = 256, 96


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:8} {figures}", flush=True)


def milliseconds(samples: list, fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


class Waiter:
    """One long poller on a non-blocking socket: connect, ask, read one answer, then again."""

    def __init__(self, source: str):
        self.source = source
        self.sock = None
        self.buffer = b""
        self.sent_at = 0.0
        self.closed_by_server = False
        self.cursor = ""


class Flood:
    """Every waiter on one selector, in this thread."""

    def __init__(self, port: int, app: str, token: str, cursor: str):
        self.port, self.app, self.token = port, app, token
        self.selector = selectors.DefaultSelector()
        self.waiters = [Waiter(s) for s in FLOODING for _ in range(PER_FLOODING)]
        self.waiters += [Waiter(GATEWAY) for _ in range(PER_GATEWAY)]
        # (when, tie-breaker, waiter): the closed waiters, by when they come back.
        self.returning = [(0.0, n, w) for n, w in enumerate(self.waiters)]
        self.order = itertools.count(len(self.waiters))
        for waiter in self.waiters:
            waiter.cursor = cursor
        self.statuses: dict = {}
        self.bad_refusals = 0
        self.woken_with_event = 0
        self.connect_errors: dict = {}

    def request_bytes(self, waiter: Waiter) -> bytes:
        target = f"/api/changes?application={self.app}&wait=30&after={waiter.cursor}"
        return (f"GET {target} HTTP/1.1\r\nHost: x\r\nAuthorization: Api {self.token}\r\n\r\n").encode()

    def open(self, waiter: Waiter) -> None:
        try:
            sock = socket.socket()
        except OSError as error:
            name = errno.errorcode.get(error.errno, str(error.errno))
            self.connect_errors[name] = self.connect_errors.get(name, 0) + 1
            self.come_back(waiter, 1.0)
            return
        sock.setblocking(False)
        try:
            sock.bind((waiter.source, 0))
            sock.connect_ex(("127.0.0.1", self.port))
        except OSError as error:
            name = errno.errorcode.get(error.errno, str(error.errno))
            self.connect_errors[name] = self.connect_errors.get(name, 0) + 1
            sock.close()
            self.come_back(waiter, 1.0)
            return
        waiter.sock, waiter.buffer, waiter.sent_at, waiter.closed_by_server = sock, b"", 0.0, False
        self.selector.register(sock, selectors.EVENT_WRITE, waiter)

    def come_back(self, waiter: Waiter, after: float) -> None:
        heapq.heappush(self.returning, (time.monotonic() + after, next(self.order), waiter))

    def close(self, waiter: Waiter, retry_after: float | None) -> None:
        if waiter.sock is not None:
            self.selector.unregister(waiter.sock)
            waiter.sock.close()
            waiter.sock = None
            if retry_after is not None:
                self.come_back(waiter, retry_after)

    def answered(self, waiter: Waiter) -> bool:
        """Handles a complete answer in the buffer; False while it is incomplete."""
        head, separator, body = waiter.buffer.partition(b"\r\n\r\n")
        if not separator:
            return False
        lines = head.decode(errors="replace").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        if len(body) < length and not waiter.closed_by_server:
            return False
        status = lines[0][9:12]
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status == "503":
            body = body[:length]
            closes = headers.get("connection", "").lower() == "close"
            if b"too many requests are waiting" not in body:
                # Not the waiting budget (a busy database session, say): documented, counted apart.
                self.statuses["503 other"] = self.statuses.get("503 other", 0) + 1
            elif headers.get("retry-after") != "1" or not closes:
                self.bad_refusals += 1
            # Retry-After: 1 is at least a second; clients spread their returns over the next.
            self.close(waiter, retry_after=1.0 + random.random())
        elif status == "200":
            answer = json.loads(body[:length])
            if answer.get("events"):
                self.woken_with_event += 1
            waiter.cursor = answer.get("cursor", waiter.cursor)
            self.close(waiter, retry_after=0.0)
        else:
            self.close(waiter, retry_after=1.0)
        return True

    def step(self, timeout: float) -> None:
        now = time.monotonic()
        while self.returning and self.returning[0][0] <= now:
            self.open(heapq.heappop(self.returning)[2])
        for key, events in self.selector.select(timeout):
            waiter = key.data
            if events & selectors.EVENT_WRITE and waiter.sent_at == 0.0:
                try:
                    waiter.sock.send(self.request_bytes(waiter))
                except OSError:
                    self.statuses["reset"] = self.statuses.get("reset", 0) + 1
                    self.close(waiter, retry_after=1.0)
                    continue
                waiter.sent_at = time.monotonic()
                self.selector.modify(waiter.sock, selectors.EVENT_READ, waiter)
                continue
            try:
                chunk = waiter.sock.recv(65536)
            except OSError:
                chunk = None
            waiter.closed_by_server = not chunk
            if chunk:
                waiter.buffer += chunk
            if self.answered(waiter):
                continue
            if not chunk:
                self.statuses["closed"] = self.statuses.get("closed", 0) + 1
                self.close(waiter, retry_after=1.0)

    def outstanding(self, older_than: float) -> dict:
        """Per source address: requests sent this long ago and not answered (the parked ones)."""
        now, counts = time.monotonic(), {}
        for waiter in self.waiters:
            if waiter.sock is not None and waiter.sent_at and now - waiter.sent_at > older_than:
                counts[waiter.source] = counts.get(waiter.source, 0) + 1
        return counts

    def stop(self) -> None:
        for waiter in self.waiters:
            self.close(waiter, retry_after=None)


class Probes:
    """/healthz, /metrics and a list from one address, one after another, in a thread."""

    def __init__(self, stack: Stack, replica, source: str):
        self.replica, self.source = replica, source
        self.targets = ["/healthz", "/metrics", f"/api/live_activity_schemas?application={stack.app}"]
        self.token = stack.token
        self.latencies: dict = {t: [] for t in self.targets}
        self.failures: list = []
        self.waiting_seen: list = []
        self.peak_rss = 0.0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def one(self, target: str) -> tuple:
        sock = socket.socket()
        sock.settimeout(PROBE_TIMEOUT)
        sock.bind((self.source, 0))
        started = time.monotonic()
        try:
            sock.connect(("127.0.0.1", self.replica.port))
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nAuthorization: Api {self.token}\r\n"
                         f"Connection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            sock.close()
        return data, time.monotonic() - started

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                self.peak_rss = max(self.peak_rss, rss_mb(self.replica.pid))
            except OSError:  # the replica is gone: every probe below fails and says so
                pass
            for target in self.targets:
                try:
                    data, seconds = self.one(target)
                    if not data.startswith(b"HTTP/1.1 200 "):
                        raise ConnectionError(data[:12] or b"no answer")
                    self.latencies[target].append(seconds)
                    if target == "/metrics":
                        for line in data.split(b"\n"):
                            if line.startswith(b"registry_waiting_requests "):
                                self.waiting_seen.append(float(line.split()[1]))
                except (OSError, ConnectionError) as error:
                    self.failures.append(f"{target}: {type(error).__name__} {error}")
            time.sleep(0.02)

    def summary(self) -> str:
        parts = []
        for target in self.targets:
            samples = self.latencies[target]
            name = target.split("?")[0].replace("/api/live_activity_schemas", "list")
            if samples:
                parts.append(f"{name} p50 {milliseconds(samples, 0.5):.1f} ms, p99 {milliseconds(samples, 0.99):.1f} ms, "
                             f"max {max(samples) * 1000:.0f} ms ({len(samples)})")
            else:
                parts.append(f"{name} never answered")
        return "; ".join(parts)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()


def flood(stack: Stack, replica, seconds: float) -> None:
    schema = json.dumps({"type": "object", "properties": {"gate": {"type": "string"}}})
    published = request(replica.url, "POST", "/api/live_activity_schemas", token=stack.token,
                        body={"application": stack.app, "attributesType": "Before", "jsonSchema": schema})
    if published.status != 200:
        raise RuntimeError(f"publish: {published.status} {published.body[:200]!r}")
    cursor = request(replica.url, "GET", f"/api/changes?application={stack.app}&after=now",
                     token=stack.token).json()["cursor"]
    before = rss_mb(replica.pid)
    probes = [Probes(stack, replica, MEASURING), Probes(stack, replica, GATEWAY)]
    waiters = Flood(replica.port, stack.app, stack.token, cursor)
    started = time.monotonic()
    most_outstanding: dict = {}
    woke_at = started + seconds / 2
    woken_before, publish_status, parked_then = 0, None, 0
    while time.monotonic() - started < seconds:
        waiters.step(0.05)
        if publish_status is None and time.monotonic() >= woke_at:
            # Unanswered for most of the first half: parked (the seats are taken in the first
            # seconds and held until this publish), or starved, which must not happen either.
            most_outstanding = waiters.outstanding(older_than=seconds / 2 - 3)
            parked_then = sum(most_outstanding.values())
            woken_before = waiters.woken_with_event
            try:
                publish_status = request(replica.url, "POST", "/api/live_activity_schemas", token=stack.token,
                                         timeout=PROBE_TIMEOUT, body={"application": stack.app, "attributesType": "Woken",
                                                                      "jsonSchema": schema}).status
            except OSError as error:  # starved like the probes: the wake step fails, the rest is measured
                publish_status = type(error).__name__
    waiters.stop()
    for probe in probes:
        probe.stop()
    time.sleep(10)
    after = rss_mb(replica.pid)

    measuring, gateway = probes
    failures = measuring.failures + gateway.failures
    record("probes", not failures and all(measuring.latencies.values()) and all(gateway.latencies.values()),
           f"{len(waiters.waiters)} waiters for {seconds:.0f} s; from {MEASURING}: {measuring.summary()}; "
           f"from the gateway {GATEWAY}: {gateway.summary()}; {len(failures)} failed"
           + (f" (first: {failures[0]})" if failures else ""))
    waiting_max = max(measuring.waiting_seen + gateway.waiting_seen, default=-1)
    per_address_max = max(most_outstanding.values(), default=0)
    record("budget", waiting_max == WAITING_BUDGET and per_address_max <= WAITING_PER_ADDRESS
           and waiters.bad_refusals == 0 and waiters.statuses.get("503", 0) > 0,
           f"registry_waiting_requests at most {waiting_max:.0f} (budget {WAITING_BUDGET}); most waiting from one "
           f"address {per_address_max} (budget {WAITING_PER_ADDRESS}); answers {waiters.statuses}; "
           f"{waiters.bad_refusals} waiting refusals without Retry-After: 1 and Connection: close"
           + (f"; connect errors {waiters.connect_errors}" if waiters.connect_errors else ""))
    woken = waiters.woken_with_event - woken_before
    record("wake", publish_status == 200 and parked_then > 0 and woken >= parked_then,
           f"publish {publish_status} with {parked_then} parked: {woken} answered with the event")
    record("memory", max(measuring.peak_rss, gateway.peak_rss) < PEAK_RSS_LIMIT_MB and after < AFTER_RSS_LIMIT_MB,
           f"RSS before {before:.0f} MB, peak {max(measuring.peak_rss, gateway.peak_rss):.0f} MB "
           f"(bound {PEAK_RSS_LIMIT_MB}), 10 s after the burst {after:.0f} MB (bound {AFTER_RSS_LIMIT_MB})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    # About 1,500 sockets here and 1,000 connections in the replica (which inherits this limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4096:
        record("flood", False, f"needs 4096 file descriptors, the hard RLIMIT_NOFILE is {hard}")
        closing_line(0, 1)
        return 1
    if soft != resource.RLIM_INFINITY and soft < 8192:
        resource.setrlimit(resource.RLIMIT_NOFILE, (8192 if hard == resource.RLIM_INFINITY else min(hard, 8192), hard))
    say("starting the stack")
    stack = Stack.start(tenant="waiters")
    print("\nLong-poll flood (the binary, default connection limits, waiters from six addresses)")
    replica = stack.add_replica("waiters", REGISTRY_HTTP_WORKERS=8)
    try:
        flood(stack, replica, 20 if args.quick else 60)
    except Exception as error:  # a broken step is a failure, not a crash of the suite
        record("flood", False, f"{type(error).__name__}: {error}")
    say(f"replica log: {replica.log_path}")
    stack.stop()
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    closing_line(passed, len(RESULTS) - passed)
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    raise SystemExit(main())
