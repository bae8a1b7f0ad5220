#!/usr/bin/env python3
"""Red-team reproductions at the edge of the service, against the real binary.

  method-flood   2,000 requests with unique 16 KB method names: each is refused with a 400
                 before routing, /metrics stays small and fast, RSS stays bounded
  idle-flood     idle sockets from 127.0.0.1 (past REGISTRY_MAX_CONNECTIONS_PER_ADDRESS) while
                 127.0.0.2 is served; the idle ones are closed at the request-head deadline
  smuggling      duplicate Content-Length, Content-Length with Transfer-Encoding, gzip/chunked,
                 missing or repeated Host, too many query parameters: one 400, then close
  slow-readers   30 connections ask for a large list (streamed) and never read: RSS stays flat
  memory         peak RSS under 256 MB during the suite, under 96 MB 10 s after the last burst

Prints peak RSS, RSS 10 s after the bursts, and /healthz latency (p50/max) during each flood.

    python3 Tests/Robustness/redteam_edge.py [--quick]

Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import threading
import time

from robustlib import Stack, closing_line, request, rss_mb, say

RESULTS: list = []


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:14} {figures}", flush=True)


class Watch:
    """Samples the replica's RSS (peak) and /healthz latency in the background."""

    def __init__(self, replica):
        self.replica = replica
        self.peak = 0.0
        self.latencies: list = []
        self.failures = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopped.is_set():
            self.peak = max(self.peak, rss_mb(self.replica.pid))
            started = time.monotonic()
            try:
                # From an address of its own, so a flood's per-address limit never applies to it.
                data, _, _ = raw(self.replica.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                 timeout=20, source="127.0.0.3")
                if not data.startswith(b"HTTP/1.1 200 "):
                    raise ConnectionError(data[:12])
                self.latencies.append(time.monotonic() - started)
            except OSError:
                self.failures += 1
            time.sleep(0.05)

    def health(self) -> str:
        """p50/max /healthz latency since the last call, and resets the samples."""
        samples, failures = self.latencies, self.failures
        self.latencies, self.failures = [], 0
        if not samples:
            return f"/healthz never answered ({failures} failures)"
        return (f"/healthz p50 {statistics.median(samples) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms"
                f" ({len(samples)} probes, {failures} failed)")

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()


def raw(port: int, data: bytes, timeout: float = 5.0, source: str = "127.0.0.1") -> tuple:
    """Sends bytes, reads until the server closes; returns (bytes, seconds, closed)."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(timeout)
    started = time.monotonic()
    sock.connect(("127.0.0.1", port))
    received, closed = b"", False
    try:
        sock.sendall(data)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                closed = True
                break
            received += chunk
    except socket.timeout:
        closed = False
    except (ConnectionResetError, BrokenPipeError):
        closed = True
    finally:
        sock.close()
    return received, time.monotonic() - started, closed


def method_flood(stack: Stack, replica, watch: Watch, quick: bool) -> None:
    count = 2000
    statuses: dict = {}
    started = time.monotonic()
    for index in range(count):
        method = (f"M{index:05d}" + "X" * 16384)[:16384]
        data, _, _ = raw(replica.port, f"{method} /api/applications HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        status = data[9:12].decode(errors="replace") or "none"
        statuses[status] = statuses.get(status, 0) + 1
    seconds = time.monotonic() - started
    health = watch.health()
    scrape_started = time.monotonic()
    metrics = request(replica.url, "GET", "/metrics", timeout=30)
    scrape = time.monotonic() - scrape_started
    ok = statuses.get("400", 0) == count and len(metrics.body) < 64 * 1024 and scrape < 1 and b"XXXX" not in metrics.body
    record("method-flood", ok,
           f"{count} unique 16 KB methods in {seconds:.1f} s: statuses {statuses}; /metrics {len(metrics.body)} bytes "
           f"in {scrape * 1000:.0f} ms; RSS now {rss_mb(replica.pid):.0f} MB; {health}")


def idle_flood(stack: Stack, quick: bool) -> None:
    per_address, head_deadline, count = 100, 2, 600
    replica = stack.add_replica("edge-idle", REGISTRY_MAX_CONNECTIONS=400, REGISTRY_MAX_CONNECTIONS_PER_ADDRESS=per_address,
                                REGISTRY_REQUEST_HEAD_TIMEOUT_SECONDS=head_deadline, REGISTRY_HTTP_WORKERS=4)
    watch = Watch(replica)
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", replica.port))
        sockets.append(sock)
    latencies, statuses = [], []
    for _ in range(10):
        started = time.monotonic()
        try:
            data, _, _ = raw(replica.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                             timeout=10, source="127.0.0.2")
            statuses.append(data[9:12].decode(errors="replace"))
        except OSError as error:
            statuses.append(type(error).__name__)
        latencies.append(time.monotonic() - started)
        time.sleep(0.1)
    time.sleep(head_deadline + 1)
    closed = 0
    for sock in sockets:
        try:
            if sock.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    watch.stop()
    ok = all(s == "200" for s in statuses) and max(latencies) < 2 and closed == count
    record("idle-flood", ok,
           f"{count} idle sockets from 127.0.0.1 (per-address limit {per_address}): 127.0.0.2 served "
           f"{statuses.count('200')}/{len(statuses)}, latency p50 {statistics.median(latencies) * 1000:.1f} ms, "
           f"max {max(latencies) * 1000:.1f} ms; {closed}/{count} idle ones closed within {head_deadline + 1} s of the "
           f"probes; {watch.health()}")
    stack.kill_replica(replica)


SMUGGLING = {
    "two-lengths": "POST /api/applications HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 40\r\n\r\nabc",
    "length+chunked": "POST /api/applications HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "gzip,chunked": "POST /api/applications HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    "no-host": "GET /api/applications HTTP/1.1\r\n\r\n",
    "two-hosts": "GET /api/applications HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    "600-params": "GET /api/applications?" + "&".join(f"a{i}=1" for i in range(600)) + " HTTP/1.1\r\nHost: x\r\n\r\n",
}


def smuggling(stack: Stack, replica, quick: bool) -> None:
    for name, text in SMUGGLING.items():
        data, seconds, closed = raw(replica.port, text.encode(), timeout=5)
        statuses = data.count(b"HTTP/1.1 ")
        is_json = b'"code":3' in data
        ok = data.startswith(b"HTTP/1.1 400 ") and statuses == 1 and closed and seconds < 3 and is_json
        record(f"smuggle-{name}"[:14], ok,
               f"{name}: {data[:12].decode(errors='replace')!r}, {statuses} status line(s), JSON {is_json}, "
               f"closed {closed} after {seconds * 1000:.0f} ms")


def publish_large_list(stack: Stack, replica, types: int) -> int:
    filler = "x" * 60000
    schema = json.dumps({"type": "object", "properties": {"note": {"type": "string", "description": filler}}})
    for index in range(types):
        response = request(replica.url, "POST", "/api/live_activity_schemas", token=stack.token, timeout=30,
                           body={"application": stack.app, "attributesType": f"Large{index:04d}", "jsonSchema": schema})
        if response.status != 200:
            raise RuntimeError(f"publish {index}: {response.status} {response.body[:200]!r}")
    return len(schema)


def slow_readers(stack: Stack, replica, watch: Watch, quick: bool) -> None:
    types, readers = (100 if quick else 200), 30
    size = publish_large_list(stack, replica, types)
    before = rss_mb(replica.pid)
    watch.health()
    target = f"/api/live_activity_schemas?application={stack.app}"
    sockets = []
    for _ in range(readers):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", replica.port))
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nAuthorization: Api {stack.token}\r\n\r\n".encode())
        sockets.append(sock)
    time.sleep(4)
    during = rss_mb(replica.pid)
    health = watch.health()
    for sock in sockets:
        sock.close()
    full = request(replica.url, "GET", target, token=stack.token, timeout=60)
    complete = full.status == 200 and len(full.json()["schemas"]) >= types
    ok = complete and during - before < 64
    record("slow-readers", ok,
           f"{readers} readers of a {types * size / 1e6:.1f} MB list that never read: RSS {before:.0f} -> {during:.0f} MB; "
           f"a full read {len(full.body) / 1e6:.1f} MB {'complete' if complete else 'INCOMPLETE'}; {health}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    say("starting the stack")
    stack = Stack.start(tenant="redteam-edge")
    replica = stack.add_replica("edge", REGISTRY_HTTP_WORKERS=8)
    watch = Watch(replica)
    for name, step in (("method-flood", lambda: method_flood(stack, replica, watch, args.quick)),
                       ("smuggling", lambda: smuggling(stack, replica, args.quick)),
                       ("slow-readers", lambda: slow_readers(stack, replica, watch, args.quick)),
                       ("idle-flood", lambda: idle_flood(stack, args.quick))):
        try:
            step()
        except Exception as error:  # one broken step must not hide the others' figures
            record(name, False, f"{type(error).__name__}: {error}")
    time.sleep(10)
    after = rss_mb(replica.pid)
    watch.stop()
    record("memory", watch.peak < 256 and after < 96,
           f"peak RSS {watch.peak:.0f} MB (bound 256), RSS 10 s after the bursts {after:.0f} MB (bound 96)")
    stack.stop()
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    closing_line(passed, len(RESULTS) - passed)
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    raise SystemExit(main())
