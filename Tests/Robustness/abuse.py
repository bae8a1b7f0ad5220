#!/usr/bin/env python3
"""Abuse and secrets, against the real binary with its own settings (sockets are easier here).

  slow-headers   a client sending its request head one byte a second is cut off by the
                 connection timeout (REGISTRY_CONNECTION_TIMEOUT_SECONDS=2)
  slow-body      the same for a body sent one byte a second
  idle-flood     1,000 idle connections (REGISTRY_MAX_CONNECTIONS=1000, timeout 3 s) do not stop
                 a normal client from being served; libmicrohttpd stops accepting over the cap
                 rather than refusing, so the bound is the timeout
  revocation     a revoked token gets 401 on every replica (two processes) within the bound of the
                 authentication cache (REGISTRY_AUTH_CACHE_SECONDS=2), and at once with no cache (0);
                 the observed delays are printed
  token-storage  api_tokens holds 32-byte hashes only, no secret text in any row
  logs           no token secret and no body marker in any replica's log

    python3 Tests/Robustness/abuse.py [--quick] [--only name,name]

The service-level abuse tests (bodies, header floods, NUL / invalid UTF-8 / long names, SQL
metacharacters) are Swift tests: Tests/RegistryAPITests/AbuseAPITests.swift.
Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import selectors
import socket
import statistics
import sys
import time

from robustlib import Stack, closing_line, log_leaks, request, say

RESULTS: list = []  # (name, ok, figures)


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:14} {figures}", flush=True)


def dribble(port: int, prefix: bytes, data: bytes, give_up: float) -> tuple:
    """Sends `prefix` at once, then `data` one byte a second, until the server closes the
    connection or `give_up` seconds pass. Returns (closed_by_server, seconds, bytes_dribbled).
    A response followed by a close (e.g. a 408) also counts as being cut off."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if prefix:
        sock.sendall(prefix)
    sock.setblocking(False)
    started = time.monotonic()
    sent = 0
    try:
        while time.monotonic() - started < give_up:
            if sent < len(data):
                try:
                    sock.send(data[sent:sent + 1])
                    sent += 1
                except OSError:
                    return True, time.monotonic() - started, sent
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline:
                try:
                    if sock.recv(4096) == b"":
                        return True, time.monotonic() - started, sent
                except BlockingIOError:
                    pass
                except OSError:
                    return True, time.monotonic() - started, sent
                time.sleep(0.02)
        return False, time.monotonic() - started, sent
    finally:
        sock.close()


def slow_clients(stack: Stack, quick: bool) -> None:
    timeout = 2
    replica = stack.add_replica("slow", REGISTRY_CONNECTION_TIMEOUT_SECONDS=timeout, REGISTRY_HTTP_WORKERS=2)
    bound = 2 * timeout + 1
    give_up = bound + 3
    # For comparison: an idle connection is closed after the timeout.
    closed, seconds, _ = dribble(replica.port, b"", b"", give_up)
    record("idle", closed and seconds <= timeout + 1.5,
           f"idle connection closed after {seconds:.1f} s (timeout {timeout} s)" if closed else
           f"idle connection still open after {seconds:.1f} s")
    head = (f"GET /api/live_activity_schemas?application={stack.app} HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Api {stack.token}\r\nX-Slow: {'s' * 64}\r\n\r\n").encode()
    closed, seconds, sent = dribble(replica.port, b"", head, give_up)
    record("slow-headers", closed and seconds <= bound,
           f"cut off after {seconds:.1f} s, {sent} bytes sent (bound {bound} s)" if closed else
           f"NOT cut off: still open after {seconds:.1f} s with {sent} header bytes sent at 1 byte/s "
           f"(REGISTRY_CONNECTION_TIMEOUT_SECONDS={timeout}, bound {bound} s)")
    body = (b'{"application":"' + stack.app.encode() + b'","attributesType":"Slow","jsonSchema":"BODY-MARKER'
            + b" " * 200 + b'"}')
    head = (f"POST /api/live_activity_schemas HTTP/1.1\r\nHost: x\r\nAuthorization: Api {stack.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    closed, seconds, sent = dribble(replica.port, head, body, give_up)
    record("slow-body", closed and seconds <= bound,
           f"cut off after {seconds:.1f} s, {sent} body bytes sent (bound {bound} s)" if closed else
           f"NOT cut off: still open after {seconds:.1f} s with {sent} body bytes sent at 1 byte/s (bound {bound} s)")
    stack.kill_replica(replica)


def idle_flood(stack: Stack, quick: bool) -> None:
    timeout, cap, count = 3, 1000, 1000
    # The flood and the normal client share 127.0.0.1: this checks the process-wide cap, so the
    # per-address limit is off (redteam_edge.py checks that one).
    replica = stack.add_replica("idle", REGISTRY_CONNECTION_TIMEOUT_SECONDS=timeout, REGISTRY_MAX_CONNECTIONS=cap,
                                REGISTRY_MAX_CONNECTIONS_PER_ADDRESS=0, REGISTRY_HTTP_WORKERS=4)
    selector = selectors.DefaultSelector()
    sockets, failed = [], 0
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        result = sock.connect_ex(("127.0.0.1", replica.port))
        if result not in (0, errno.EINPROGRESS):
            failed += 1
            sock.close()
            continue
        sockets.append(sock)
        selector.register(sock, selectors.EVENT_READ)
    opened = time.monotonic()
    latencies, statuses = [], []
    for i in range(10 if quick else 30):
        started = time.monotonic()
        try:
            status = request(replica.url, "GET", f"/api/live_activity_schemas?application={stack.app}",
                             token=stack.token, timeout=timeout * 4).status
        except OSError as error:
            status = type(error).__name__
        statuses.append(status)
        latencies.append(time.monotonic() - started)
    # How many of the idle connections the server has closed by now (EOF readable).
    closed = 0
    for key, _ in selector.select(timeout=0.5):
        try:
            if key.fileobj.recv(1) == b"":
                closed += 1
        except OSError:
            closed += 1
    held = time.monotonic() - opened
    for sock in sockets:
        sock.close()
    ok = all(s == 200 for s in statuses) and max(latencies) <= timeout + 2
    record("idle-flood", ok,
           f"{len(sockets)} idle connections (cap {cap}, timeout {timeout} s): normal client "
           f"{sum(s == 200 for s in statuses)}/{len(statuses)} served, latency median {statistics.median(latencies):.3f} s, "
           f"max {max(latencies):.3f} s; {closed} idle ones closed by the server within {held:.1f} s")
    stack.kill_replica(replica)


def revocation(stack: Stack, quick: bool) -> None:
    account = stack.env["STACK_ACCOUNT"]
    for cache in (2, 0):
        pair = [stack.add_replica(f"auth{cache}-{i}", REGISTRY_AUTH_CACHE_SECONDS=cache, REGISTRY_HTTP_WORKERS=2)
                for i in range(2)]
        secret = stack.admin("issue-token", "--account", account)
        # The token just issued: the newest live one of the account.
        token_id = max((int(line.split("\t")[0]) for line in stack.admin("list-tokens", "--account", account).splitlines()
                        if line.split("\t")[-1] == "-"))
        SECRETS.append(secret)
        target = f"/api/live_activity_schemas?application={stack.app}"
        warm = [request(r.url, "GET", target, token=secret).status for r in pair]
        stack.admin("revoke-token", str(token_id))
        revoked_at = time.monotonic()
        delays, first = [], []
        for replica in pair:
            status = request(replica.url, "GET", target, token=secret).status
            first.append(status)
        for replica in pair:
            while True:
                status = request(replica.url, "GET", target, token=secret).status
                if status == 401:
                    delays.append(time.monotonic() - revoked_at)
                    break
                if time.monotonic() - revoked_at > cache + 5:
                    delays.append(None)
                    break
                time.sleep(0.02)
        # The other tokens of the account keep working.
        still = [request(r.url, "GET", target, token=stack.token).status for r in pair]
        bound = cache + 0.5
        ok = (warm == [200, 200] and all(d is not None and d <= bound for d in delays) and still == [200, 200]
              and (cache > 0 or first == [401, 401]))
        shown = ", ".join("never" if d is None else f"{d:.3f} s" for d in delays)
        record(f"revocation-{cache}s", ok,
               f"REGISTRY_AUTH_CACHE_SECONDS={cache}, 2 replicas: 401 after {shown} (bound {bound} s); "
               f"first request after revoking: {first}; other token still {still}")
        for replica in pair:
            stack.kill_replica(replica)


SECRETS: list = []


def token_storage(stack: Stack) -> None:
    rows = stack.psql("SELECT octet_length(token_hash) || ' ' || encode(token_hash, 'hex') FROM api_tokens").split()
    lengths = rows[0::2]
    whole = stack.psql("SELECT row_to_json(t)::text FROM api_tokens t")
    leaked = [s[:10] for s in SECRETS if s in whole or s[4:] in whole]
    hashes = set(rows[1::2])
    matching = sum(hashlib.sha256(s.encode()).hexdigest() in hashes for s in SECRETS)
    ok = lengths and set(lengths) == {"32"} and not leaked and matching == len(SECRETS)
    record("token-storage", bool(ok),
           f"{len(lengths)} rows, token_hash lengths {sorted(set(lengths))} bytes, {matching}/{len(SECRETS)} "
           f"issued secrets found only as their SHA-256, secret text in rows: {len(leaked)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    stack = Stack.start("abuse")
    SECRETS.append(stack.token)
    print("\nAbuse and secrets (the binary, its settings, real sockets)")
    steps = [("slow", slow_clients), ("idle-flood", idle_flood), ("revocation", revocation)]
    for name, step in steps:
        if not only or name in only:
            try:
                step(stack, args.quick)
            except Exception as error:  # a broken step is a failure, not a crash of the suite
                record(name, False, f"{type(error).__name__}: {error}")
    token_storage(stack)
    leaks = log_leaks([r.log_path for r in stack.replicas], SECRETS + ["BODY-MARKER"])
    record("logs", not leaks, f"{len(stack.replicas)} replica logs: " + (f"secrets found {leaks}" if leaks else
                                                                          "no token secret, no body text"))
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    closing_line(passed, len(RESULTS) - passed)
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
