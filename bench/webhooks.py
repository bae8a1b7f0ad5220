#!/usr/bin/env python3
"""Webhook delivery, timed from commit to receipt, and the transport ceiling it is compared with.

  webhooks.py deliver --url URL --token T --app CODE --types types.txt --schema FILE --changes N
                      [--threads 8] [--bound SECONDS]
      Subscribes the receiver (bench/webhook_receiver.py, started here on 127.0.0.1) to every
      `published` event of the application, publishes N next-free versions to random types as
      fast as `--threads` keep-alive connections get answers, and waits until N deliveries
      arrived or `--bound` seconds passed after the last publish.
  webhooks.py post --changes N
      The baseline: N POSTs of a delivery-shaped, signed body to the same receiver, one at a
      time and each on a new connection, as the registry's deliverer sends them (one
      subscription's events go out in order, one libcurl handle per delivery).

Both print one JSON object on the last line of stdout, read by `measure.py run --kind json`:
rps = deliveries per second from the first commit (deliver: the first publish's answer; post:
the first send) to the last receipt; p50_ms/p99_ms = per event, commit (the publish's answer,
which comes after its transaction committed) → first arrival at the receiver; requests = events
delivered; non2xx = events missing when the bound ran out. Both processes take time.time() on
the same machine, so the two ends share one clock.
"""

import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

BENCH = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(os.path.dirname(BENCH), ".build", "webhook-tools")


def start_receiver():
    env = {"PATH": "/usr/bin:/bin"}
    if os.path.isdir(os.path.join(TOOLS, "standardwebhooks")):
        env["PYTHONPATH"] = TOOLS
    process = subprocess.Popen([sys.executable, os.path.join(BENCH, "webhook_receiver.py")], stdout=subprocess.PIPE, env=env)
    port = json.loads(process.stdout.readline())["port"]
    return process, f"http://127.0.0.1:{port}"


def call(url, method, path, body=None, token=None, timeout=30):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Api {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body).encode(), headers=headers)
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, payload


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else None


def wait_for(receiver_url, wanted, deadline):
    """The receiver's log once it holds `wanted` distinct webhook-ids, or at the deadline; the
    measuring window (see measure.py) ends when it is complete."""
    while json.loads(call(receiver_url, "GET", "/control/count")[1])["ids"] < wanted and time.monotonic() < deadline:
        time.sleep(0.02)
    mark("end")
    return json.loads(call(receiver_url, "GET", "/control/log")[1])


def mark(edge):
    """Tells measure.py where the measured part starts and ends, so set-up is not in its CPU."""
    print(f"measure: window {edge}", flush=True)


def first_arrivals(log):
    firsts = {}
    for entry in log:
        firsts.setdefault(entry["id"], entry)
    return firsts


def summary(kind, expected, starts, firsts, extra):
    """starts: key → commit (or send) time; firsts: webhook-id → its first arrival, whose `key`
    names its entry in starts. Arrivals without one (not ours) are left out."""
    latencies, arrivals = [], []
    for entry in firsts.values():
        started = starts.get(entry["key"])
        if started is not None:
            latencies.append((entry["at"] - started) * 1000)
            arrivals.append(entry["at"])
    delivered = len(latencies)
    span = (max(arrivals) - min(starts.values())) if arrivals else None
    result = {
        "kind": kind, "expected": expected, "requests": delivered, "non2xx": expected - delivered, "socket_errors": 0,
        "rps": delivered / span if span else 0.0,
        "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99), "span_s": span,
    }
    result.update(extra)
    return result


def deliver(args):
    with open(args.types) as f:
        types = [line.strip() for line in f if line.strip()]
    with open(args.schema, encoding="utf-8") as f:
        schema = f.read()
    receiver, receiver_url = start_receiver()
    try:
        status, payload = call(args.url, "POST", f"/api/applications/{args.app}/webhooks", token=args.token,
                               body={"url": receiver_url + "/hook", "events": ["published"],
                                     "description": "bench receiver on loopback"})
        if status != 200:
            sys.exit(f"webhooks: creating the subscription answered {status} {payload[:300]!r}")
        created = json.loads(payload)
        call(receiver_url, "POST", "/control", body={"secret": created["secret"]})

        lock = threading.Lock()
        answered = {}  # (attributes type, version) → time of the publish's answer
        counters = {"claimed": 0, "errors": 0}
        problems = []
        parts = urllib.parse.urlsplit(args.url)
        headers = {"Authorization": f"Api {args.token}", "Content-Type": "application/json"}

        def publisher(k):
            rng = random.Random(k)
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
            while True:
                with lock:
                    if counters["claimed"] >= args.changes or counters["errors"] > args.changes:
                        break
                    counters["claimed"] += 1
                name = rng.choice(types)
                body = json.dumps({"application": args.app, "attributesType": name, "jsonSchema": schema}).encode()
                try:
                    conn.request("POST", "/api/live_activity_schemas", body=body, headers=headers)
                    response = conn.getresponse()
                    text = response.read()
                except (OSError, http.client.HTTPException) as error:
                    conn.close()
                    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                    status, text = 0, str(error).encode()
                else:
                    status = response.status
                at = time.time()
                with lock:
                    if status == 200:
                        answered[(name, json.loads(text)["schema"]["version"])] = at
                    else:  # not a change: published again by whoever claims next
                        counters["claimed"] -= 1
                        counters["errors"] += 1
                        if len(problems) < 3:
                            problems.append(f"HTTP {status} {text[:200]!r}")
            conn.close()

        threads = [threading.Thread(target=publisher, args=(k,)) for k in range(args.threads)]
        mark("start")
        first_send = time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        published_in = time.time() - first_send
        if len(answered) < args.changes:
            sys.exit(f"webhooks: only {len(answered)} of {args.changes} publishes succeeded: {'; '.join(problems)}")
        log = wait_for(receiver_url, args.changes, time.monotonic() + args.bound)
        # Gone with its receiver: a later run's deliverers must not keep retrying it.
        status, payload = call(args.url, "DELETE", f"/api/applications/{args.app}/webhooks/{created['webhook']['id']}",
                               token=args.token)
        if status not in (200, 204):
            sys.exit(f"webhooks: deleting the subscription answered {status} {payload[:300]!r}")
    finally:
        receiver.kill()
        receiver.wait()
    firsts = first_arrivals(log)
    for entry in firsts.values():
        entry["key"] = (entry["attributes_type"], entry["version"])
    verified = [entry["verified"] for entry in firsts.values()]
    return summary("deliver", args.changes, answered, firsts, {
        "publish_rps": args.changes / published_in, "publish_errors": counters["errors"],
        "duplicates": len(log) - len(firsts), "unexpected": sum(entry["key"] not in answered for entry in firsts.values()),
        "verified": None if any(v is None for v in verified) else sum(verified), "bound_s": args.bound,
    })


def post(args):
    secret = base64.b64encode(os.urandom(24)).decode()
    key = base64.b64decode(secret)
    receiver, receiver_url = start_receiver()
    sent = {}
    try:
        call(receiver_url, "POST", "/control", body={"secret": "whsec_" + secret})
        port = urllib.parse.urlsplit(receiver_url).port
        mark("start")
        for n in range(args.changes):
            message_id = f"msg_bench_{n}"
            body = json.dumps({"type": "published", "application": "bench", "attributes_type": "WebhookBaselineAttributes",
                               "version": n + 1, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                               "cursor": base64.urlsafe_b64encode(f"c1:{n}:{n}".encode()).decode()}).encode()
            timestamp = str(int(time.time()))
            signature = base64.b64encode(hmac.new(key, f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest())
            head = (f"POST /hook HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                    f"webhook-id: {message_id}\r\nwebhook-timestamp: {timestamp}\r\nwebhook-signature: v1,{signature.decode()}\r\n"
                    f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
            # A raw socket, the least a Python sender can do per delivery: the ceiling is the
            # receiver's and the loopback's, not http.client's.
            sent[message_id] = time.time()
            with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
                conn.sendall(head + body)
                answer = b""
                while b"\r\n\r\n" not in answer:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
            if not answer.startswith(b"HTTP/1.1 204") and not answer.startswith(b"HTTP/1.0 204"):
                sys.exit(f"webhooks: the receiver answered {answer[:100]!r}")
        log = wait_for(receiver_url, args.changes, time.monotonic() + 10)
    finally:
        receiver.kill()
        receiver.wait()
    firsts = first_arrivals(log)
    for entry in firsts.values():
        entry["key"] = entry["id"]
    verified = [entry["verified"] for entry in firsts.values()]
    return summary("post", args.changes, sent, firsts, {
        "duplicates": len(log) - len(firsts), "verified": None if any(v is None for v in verified) else sum(verified),
    })


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("deliver")
    d.add_argument("--url", required=True)
    d.add_argument("--token", required=True)
    d.add_argument("--app", required=True)
    d.add_argument("--types", required=True)
    d.add_argument("--schema", required=True)
    d.add_argument("--changes", type=int, required=True)
    d.add_argument("--threads", type=int, default=8)
    d.add_argument("--bound", type=float, default=60, help="seconds after the last publish to wait for deliveries")
    p = sub.add_parser("post")
    p.add_argument("--changes", type=int, required=True)
    args = parser.parse_args()
    result = deliver(args) if args.command == "deliver" else post(args)
    missing = result["expected"] - result["requests"]
    if missing:
        print(f"webhooks: {missing} of {result['expected']} events did not arrive", file=sys.stderr)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
