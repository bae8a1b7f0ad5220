#!/usr/bin/env python3
"""Seeds the registry through its API, then warms its response cache.

  seed.py publish --url URL --token T --app CODE --data seed.jsonl [--threads 8]
      Publishes every line of seed.jsonl (next-free, versions in order per type), several
      types at a time on keep-alive connections, and checks each assigned version.
  seed.py warm --url URL --token T --app CODE --types types.txt [--versions 5] [--forms-version 5]
      GETs every version and the form of every type's given version once, so the warm-cache
      scenarios start with the cache filled.
  seed.py check --url URL --token T --app CODE --path …/{type}/{version}:check --body check.json
      Sends one `:check` with the values in check.json and fails unless the answer is 200 with
      `valid: true`, so the check scenarios measure a passing check (and its schema is compiled).
"""

import argparse
import http.client
import json
import sys
import threading
import time
import urllib.parse
from collections import OrderedDict


def connect(url):
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)


def run_threads(count, work):
    errors = []

    def guarded(k):
        try:
            work(k)
        except Exception as error:  # reported after join, with the thread's share of the work
            errors.append(f"worker {k}: {error}")

    threads = [threading.Thread(target=guarded, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        sys.exit("seed: " + "; ".join(errors[:3]))


def publish(args):
    by_type = OrderedDict()
    with open(args.data, encoding="utf-8") as data:
        for line in data:
            item = json.loads(line)
            by_type.setdefault(item["attributesType"], []).append(item)
    names = list(by_type)
    headers = {"Authorization": f"Api {args.token}", "Content-Type": "application/json"}
    started = time.monotonic()

    def work(k):
        conn = connect(args.url)
        for name in names[k:: args.threads]:
            for item in by_type[name]:
                body = json.dumps({"application": args.app, "attributesType": name, "jsonSchema": item["jsonSchema"]},
                                  ensure_ascii=False).encode()
                conn.request("POST", "/api/live_activity_schemas", body=body, headers=headers)
                response = conn.getresponse()
                payload = response.read()
                if response.status != 200:
                    raise RuntimeError(f"{name} v{item['version']}: HTTP {response.status} {payload[:300]!r}")
                version = json.loads(payload)["schema"]["version"]
                if version != item["version"]:
                    raise RuntimeError(f"{name}: expected version {item['version']}, got {version}")
        conn.close()

    run_threads(args.threads, work)
    count = sum(len(v) for v in by_type.values())
    seconds = time.monotonic() - started
    print(f"seeded {count} versions of {len(names)} types in {seconds:.1f} s ({count / seconds:.0f}/s)", file=sys.stderr)


def warm(args):
    with open(args.types, encoding="utf-8") as f:
        names = [line.strip() for line in f if line.strip()]
    paths = [f"/api/live_activity_schemas/{n}/{v}?application={args.app}"
             for n in names for v in range(1, args.versions + 1)]  # --versions 0: forms only
    if args.forms_version:
        paths += [f"/api/live_activity_schemas/{n}/{args.forms_version}/form?application={args.app}" for n in names]
    headers = {"Authorization": f"Api {args.token}"}
    started = time.monotonic()

    def work(k):
        conn = connect(args.url)
        for path in paths[k:: args.threads]:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"GET {path}: HTTP {response.status}")
        conn.close()

    run_threads(args.threads, work)
    print(f"warmed {len(paths)} responses in {time.monotonic() - started:.1f} s", file=sys.stderr)


def check(args):
    with open(args.body, encoding="utf-8") as f:
        body = dict(json.load(f), application=args.app)
    conn = connect(args.url)
    started = time.monotonic()
    conn.request("POST", args.path, body=json.dumps(body, ensure_ascii=False).encode(),
                 headers={"Authorization": f"Api {args.token}", "Content-Type": "application/json"})
    response = conn.getresponse()
    payload = response.read()
    seconds = time.monotonic() - started
    conn.close()
    answer = json.loads(payload) if response.status == 200 else {}
    if answer.get("valid") is not True:
        sys.exit(f"seed: POST {args.path}: HTTP {response.status} {payload[:400]!r}")
    print(f"checked {len(json.dumps(body)):,} B of values against {args.path}: valid, "
          f"{len(answer.get('problems', []))} warning(s), first answer in {seconds * 1000:.0f} ms", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("publish", "warm", "check"):
        p = sub.add_parser(name)
        p.add_argument("--url", required=True)
        p.add_argument("--token", required=True)
        p.add_argument("--app", required=True)
        p.add_argument("--threads", type=int, default=8)
    sub.choices["publish"].add_argument("--data", required=True)
    sub.choices["warm"].add_argument("--types", required=True)
    sub.choices["warm"].add_argument("--versions", type=int, default=5)
    sub.choices["warm"].add_argument("--forms-version", type=int, default=0)
    sub.choices["check"].add_argument("--path", required=True)
    sub.choices["check"].add_argument("--body", required=True)
    args = parser.parse_args()
    {"publish": publish, "warm": warm, "check": check}[args.command](args)


if __name__ == "__main__":
    main()
