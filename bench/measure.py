#!/usr/bin/env python3
"""Runs one load (wrk or pgbench) and records what the bench table needs.

  measure.py run --label L --run N --out FILE [--server-pid PID] [--also-server-pid PID…] [--pg-pid PID]
                 [--metrics URL] [--kind wrk|pgbench|json] [--pgbench-log-dir DIR] -- COMMAND…
      Runs COMMAND (wrk, pgbench, or a script printing its figures as JSON on its last line) to
      completion and writes one JSON object to FILE: requests per second, p50/p99 latency,
      errors, the server's VmRSS sampled every 100 ms (max) and its VmHWM, and CPU used during
      the run by the server process tree (plus --also-server-pid: a second replica doing the
      scenario's work), PostgreSQL (postmaster and all backends, exited ones included through
      the postmaster's children times), the load generator, and everything else on the machine.
  measure.py report --results DIR --micro FILE --out FILE --mode MODE --search-types N [--info KEY=VALUE…]
      Prints the table (medians over runs) with ratios to the baselines and the targets.
"""

import argparse
import glob
import json
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")
# A line a --kind json script prints, "measure: window start" / "… end", to have CPU measured
# over its own window instead of its whole run.
WINDOW_MARK = "measure: window "


# --- /proc ------------------------------------------------------------------------------------

def proc_stat(pid):
    """(ppid, own cpu seconds, waited-for children's cpu seconds) or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    # fields[0] is state (field 3); utime is field 14 → index 11.
    ppid = int(fields[1])
    own = (int(fields[11]) + int(fields[12])) / TICKS
    children = (int(fields[13]) + int(fields[14])) / TICKS
    return ppid, own, children


def tree_cpu(root):
    """CPU seconds of `root`, its live children and its exited (waited-for) children."""
    if not root:
        return 0.0
    me = proc_stat(root)
    if me is None:
        return 0.0
    total = me[1] + me[2]
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != root:
            st = proc_stat(int(entry))
            if st and st[0] == root:
                total += st[1]
    return total


def whole_tree_cpu(root):
    """CPU seconds of `root` and all its descendants, live or waited for, however deep."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = proc_stat(int(entry))
            if st:
                stats[int(entry)] = st
    total, pending = 0.0, [root]
    while pending:
        pid = pending.pop()
        if pid in stats:
            total += stats[pid][1] + stats[pid][2]
            pending.extend(child for child, st in stats.items() if st[0] == pid)
    return total


def machine_busy():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICKS


def status_kb(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def cache_bytes(url):
    if not url:
        return None
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            text = response.read().decode()
    except OSError:
        return None
    match = re.search(r"^registry_cache_bytes(?:\{[^}]*\})? ([0-9.e+]+)$", text, re.M)
    return float(match.group(1)) if match else None


PG_STATS_SQL = ("SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()), "
                "wal_sync, pg_current_wal_lsn() - '0/0'::pg_lsn FROM pg_stat_wal")


def pg_stats(psql):
    """(transactions, WAL flushes, WAL bytes) so far, or None. Backends report the first two at
    most once a second, so callers wait a little before the second reading."""
    if not psql:
        return None
    try:
        text = subprocess.run(shlex.split(psql) + ["-tA", "-F", " ", "-c", PG_STATS_SQL], capture_output=True,
                              text=True, timeout=20).stdout
        return [float(v) for v in text.split()]
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


# --- parsing ----------------------------------------------------------------------------------

def to_ms(text):
    match = re.match(r"([0-9.]+)(us|ms|s|m)$", text)
    if not match:
        return None
    value, unit = float(match.group(1)), match.group(2)
    return value * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(text):
    out = {}
    m = re.search(r"^Requests/sec:\s+([0-9.]+)", text, re.M)
    out["rps"] = float(m.group(1)) if m else None
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+(\S+)", text, re.M)
        out[f"p{pct}_ms"] = to_ms(m.group(1)) if m else None
    m = re.search(r"(\d+) requests in", text)
    out["requests"] = int(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    out["non2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    out["socket_errors"] = sum(int(g) for g in m.groups()) if m else 0
    return out


def parse_json(text):
    """The figures a bench script (bench/webhooks.py) prints as one JSON object on its last line."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        out = json.loads(lines[-1]) if lines else {}
    except ValueError:
        out = {}
    return out if isinstance(out, dict) else {}


def parse_pgbench(text, log_dir):
    out = {"non2xx": 0, "socket_errors": 0}
    m = re.search(r"^tps = ([0-9.]+) \(without initial connection time\)", text, re.M)
    out["rps"] = float(m.group(1)) if m else None
    m = re.search(r"number of transactions actually processed: (\d+)", text)
    out["requests"] = int(m.group(1)) if m else None
    m = re.search(r"number of failed transactions: (\d+)", text)
    out["non2xx"] = int(m.group(1)) if m else 0
    latencies = []
    for path in glob.glob(os.path.join(log_dir or "/nonexistent", "pgbench_log*")):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3:
                    latencies.append(int(parts[2]) / 1000.0)
        os.unlink(path)
    if latencies:
        latencies.sort()
        out["p50_ms"] = latencies[len(latencies) // 2]
        out["p99_ms"] = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    else:
        m = re.search(r"^latency average = ([0-9.]+) ms", text, re.M)
        out["p50_ms"] = float(m.group(1)) if m else None
        out["p99_ms"] = None
    return out


# --- run --------------------------------------------------------------------------------------

def run(args):
    command = args.command[1:] if args.command and args.command[0] == "--" else args.command
    samples = []
    stop = threading.Event()

    def sampler():
        while not stop.wait(0.1):
            if args.server_pid:
                rss = status_kb(args.server_pid, "VmRSS")
                if rss is not None:
                    samples.append(rss)

    stats0 = pg_stats(args.pg_stats)
    servers = [args.server_pid] + (args.also_server_pid or [])
    server_cpu0 = sum(tree_cpu(pid) for pid in servers)
    pg_cpu0 = tree_cpu(args.pg_pid)
    busy0 = machine_busy()
    load0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines, window = [], {}

    def snapshot():  # the load is still running: its CPU is its process tree's, not a rusage
        return (time.monotonic(), sum(tree_cpu(pid) for pid in servers), tree_cpu(args.pg_pid), machine_busy(),
                whole_tree_cpu(process.pid))

    try:
        for line in process.stdout:
            lines.append(line)
            if line.startswith(WINDOW_MARK):  # a script's own measuring window (--kind json)
                window[line[len(WINDOW_MARK):].strip()] = snapshot()
        process.wait()
    except KeyboardInterrupt:
        process.kill()
        raise
    output = "".join(lines)
    wall = time.monotonic() - started
    stop.set()
    thread.join()
    load1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = machine_busy() - busy0
    server_cpu = sum(tree_cpu(pid) for pid in servers) - server_cpu0 if args.server_pid else 0.0
    pg_cpu = tree_cpu(args.pg_pid) - pg_cpu0 if args.pg_pid else 0.0
    if args.server_pid and args.server_pid == args.pg_pid:
        server_cpu = 0.0  # pgbench: the server is PostgreSQL itself
    load_cpu = (load1.ru_utime + load1.ru_stime) - (load0.ru_utime + load0.ru_stime)
    cpu_wall = wall
    if "start" in window and "end" in window:
        # CPU within the window only, so the script's start-up and set-up are not in the figures.
        start, end = window["start"], window["end"]
        cpu_wall, server_cpu, pg_cpu, busy, load_cpu = (end[i] - start[i] for i in range(5))
        if not args.server_pid:
            server_cpu = 0.0
    stats1 = None
    if stats0:
        time.sleep(1.5)
        stats1 = pg_stats(args.pg_stats)
    if process.returncode != 0:
        sys.stderr.write(output[-3000:])
        sys.exit(f"measure: {args.label}: {command[0]} exited with {process.returncode}")
    parsed = {"pgbench": lambda: parse_pgbench(output, args.pgbench_log_dir), "json": lambda: parse_json(output),
              "wrk": lambda: parse_wrk(output)}[args.kind]()
    if parsed.get("rps") is None:
        sys.stderr.write(output[-3000:])
        sys.exit(f"measure: {args.label}: could not read the throughput")
    result = dict(parsed)
    result.update({
        "label": args.label, "run": args.run, "wall_s": round(wall, 2),
        "rss_max_mb": round(max(samples) / 1024, 1) if samples else None,
        "hwm_mb": round((status_kb(args.server_pid, "VmHWM") or 0) / 1024, 1) if args.server_pid and args.server_pid != args.pg_pid else None,
        "cache_mb": (lambda b: round(b / 1048576, 1) if b is not None else None)(cache_bytes(args.metrics)),
        "cpu_pct": {
            "server": round(100 * server_cpu / cpu_wall),
            "pg": round(100 * pg_cpu / cpu_wall),
            "load": round(100 * load_cpu / cpu_wall),
            "other": max(0, round(100 * (busy - server_cpu - pg_cpu - load_cpu) / cpu_wall)),
            "machine": round(100 * busy / cpu_wall),
        },
    })
    if stats0 and stats1 and result.get("requests"):
        n = result["requests"]
        result["pg_per_request"] = {
            "transactions": round((stats1[0] - stats0[0]) / n, 2),
            "wal_flushes": round((stats1[1] - stats0[1]) / n, 3),
            "wal_kb": round((stats1[2] - stats0[2]) / n / 1024, 2),
        }
    with open(args.out, "w") as f:
        json.dump(result, f)
    p99 = result.get("p99_ms")
    print(f"  {args.label:<28} run {args.run}: {result['rps']:>10,.0f}/s  p50 {result.get('p50_ms') or 0:.2f} ms  "
          f"p99 {p99 or 0:.2f} ms  cpu server/pg/load/other {result['cpu_pct']['server']}/{result['cpu_pct']['pg']}/"
          f"{result['cpu_pct']['load']}/{result['cpu_pct']['other']} %"
          + (f"  errors {result['non2xx'] + result['socket_errors']}" if result['non2xx'] + result['socket_errors'] else ""),
          file=sys.stderr)


# --- report -----------------------------------------------------------------------------------

# A read's p99 target, unless its row names another.
P99_TARGET_MS = 5.0
RSS_TARGET_MB = 64.0
FORM_TARGET = 3.0

# Rows per request, for scenarios compared with the one-row pgbench SELECT in rows per second.
ROWS = {"list_type": 5, "list_app": 100}

SCENARIOS = [
    # label, title, baseline label, target ratio, p99 target in ms (reads)
    ("get_warm", "GET a version, warm cache", "nginx", 1.0, 2.0),
    ("check_bench", ":check, the warm GET's version", "get_warm", None, P99_TARGET_MS),
    ("check_60k", ":check, 60 KB schema, 4 KB values", "get_warm", None, P99_TARGET_MS),
    ("get_uncached", "GET a version, cache disabled", "pg_select", 0.5, P99_TARGET_MS),
    ("form_warm", "GET a form, warm cache", "nginx", None, P99_TARGET_MS),
    ("form_uncached", "GET a form, cache disabled", "pg_select", None, P99_TARGET_MS),
    ("list_type", "list one type (5 versions)", "pg_select", None, P99_TARGET_MS),
    ("list_app", "list whole app, pages of 100", "pg_select", None, P99_TARGET_MS),
    ("search", "search field:, {search_types} types × 10", "pg_select", None, P99_TARGET_MS),
    ("publish_spread", "publish next-free, 1,000 types", "pg_publish_tx_spread", 0.8, None),
    ("publish_spread", "the same, vs the statement alone", "pg_publish_spread", None, None),
    ("publish_spread", "the same, vs the FastAPI peer", "peer_publish_spread", 3.0, None),
    ("publish_hot", "publish next-free, one type", "pg_publish_tx_hot", 1.0, None),
    ("publish_hot", "the same, vs the statement alone", "pg_publish_hot", None, None),
    ("mix", "mix 90 % GET / 10 % publish", "nginx", 0.5, None),
    ("webhooks", "webhooks: commit → receipt", "webhook_post", None, None),
]
BASELINES = [
    ("nginx", "nginx: same body as static file"),
    ("pg_select", "pgbench: get-version SELECT"),
    ("pg_publish_tx_spread", "pgbench: publish tx, 1,000 types"),
    ("pg_publish_spread", "pgbench: statement, 1,000 types"),
    ("peer_publish_spread", "FastAPI + asyncpg peer: publish"),
    ("pg_publish_tx_hot", "pgbench: publish tx, one type"),
    ("pg_publish_hot", "pgbench: statement, one type"),
    ("webhook_post", "POST loop: same receiver, in order"),
]


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(results, label):
    runs = [r for r in results if r["label"] == label]
    if not runs:
        return None
    cpu = {k: median([r["cpu_pct"][k] for r in runs]) for k in runs[0]["cpu_pct"]}
    return {
        "runs": len(runs),
        "rps": median([r["rps"] for r in runs]),
        "rps_all": [round(r["rps"]) for r in runs],
        "p50_ms": median([r.get("p50_ms") for r in runs]),
        "p99_ms": median([r.get("p99_ms") for r in runs]),
        "rss_max_mb": max([r["rss_max_mb"] for r in runs if r.get("rss_max_mb") is not None], default=None),
        # The first run's figures show memory growing with each working set; later runs start full.
        "rss_first_mb": next((r.get("rss_max_mb") for r in sorted(runs, key=lambda r: r["run"])), None),
        "cache_first_mb": next((r.get("cache_mb") for r in sorted(runs, key=lambda r: r["run"])), None),
        "hwm_mb": max([r["hwm_mb"] for r in runs if r.get("hwm_mb") is not None], default=None),
        "cache_mb": max([r["cache_mb"] for r in runs if r.get("cache_mb") is not None], default=None),
        "errors": sum(r.get("non2xx", 0) + r.get("socket_errors", 0) for r in runs),
        "pg_per_request": {k: median([r["pg_per_request"][k] for r in runs if "pg_per_request" in r])
                           for k in ("transactions", "wal_flushes", "wal_kb")} if any("pg_per_request" in r for r in runs) else None,
        "cpu": cpu,
        "delivery": delivery_summary(runs),
    }


def delivery_summary(runs):
    """Webhook rows: events expected and delivered over all runs, and the medians of the rest."""
    runs = [r for r in runs if "expected" in r]
    if not runs:
        return None
    verified = [r.get("verified") for r in runs]
    return {
        "expected": sum(r["expected"] for r in runs), "delivered": sum(r["requests"] for r in runs),
        "duplicates": sum(r.get("duplicates", 0) for r in runs),
        "verified": None if any(v is None for v in verified) else sum(verified),
        "publish_rps": median([r.get("publish_rps") for r in runs]), "bound_s": runs[0].get("bound_s"),
        "per_run": runs[0]["expected"],
    }


def per_request(s, key):
    """CPU microseconds per request: CPU % of one core × 10,000 / requests per second."""
    if not s["rps"] or s["cpu"].get(key) is None:
        return "-"
    return f"{s['cpu'][key] * 10_000 / s['rps']:.0f}"


def fmt(value, pattern, missing="-"):
    return missing if value is None else pattern.format(value)


def ms(value):
    """A latency in its 8-character column: whole milliseconds from a second up (webhooks)."""
    return fmt(value, "{:.2f}" if value is None or value < 1000 else "{:,.0f}")


def verdict(ok):
    return "PASS" if ok else "MISS"


def report(args):
    results = []
    for path in sorted(glob.glob(os.path.join(args.results, "*.json"))):
        with open(path) as f:
            item = json.load(f)
        if isinstance(item, dict) and "label" in item:  # skips data-summary.json beside them
            results.append(item)
    micro = []
    if args.micro and os.path.exists(args.micro):
        with open(args.micro) as f:
            micro = [json.loads(line) for line in f if line.strip().startswith("{")]
    lines = []
    add = lines.append
    info = dict(item.split("=", 1) for item in args.info or [])
    if args.data_summary and os.path.exists(args.data_summary):
        with open(args.data_summary) as f:
            d = json.load(f)
        info["data"] = (f"{d['versions']:,} versions, {d['total_bytes'] / 1e6:.1f} MB of schema text, "
                        f"{d['min']:,} B to {d['max']:,} B, median {d['median']:,} B, mean {d['mean']:,} B")
    add(f"Live Activity Schema Registry benchmark ({args.mode}) — {info.get('date', time.strftime('%Y-%m-%d %H:%M:%S'))}")
    for key in ("commit", "machine", "load", "postgres", "registry", "data"):
        if key in info:
            add(f"  {key:<9} {info[key]}")
    add("")
    header = (f"{'scenario':<34}{'req/s':>10}{'p50 ms':>8}{'p99 ms':>8}{'RSS MB':>8}{'cache':>7}"
              f"  {'ratio to baseline':<28}{'target':<22}{'CPU % srv/pg/load/other':>25}{'µs/req srv/pg':>15}")
    add(header)
    add("-" * len(header))
    baselines = {label: summarize(results, label) for label, _ in BASELINES}
    targets = []

    def pg_line(s):
        p = s.get("pg_per_request")
        if p and p["transactions"] is not None:
            add(f"{'':<34}  PostgreSQL per request: {p['transactions']:.2f} transactions, "
                f"{p['wal_flushes']:.3f} WAL flushes, {p['wal_kb']:.2f} KB of WAL")

    def row(title, s, ratio_text, target_text, server_label="srv"):
        cpu = s["cpu"]
        add(f"{title:<34}{fmt(s['rps'], '{:,.0f}'):>10}{ms(s['p50_ms']):>8}{ms(s['p99_ms']):>8}"
            f"{fmt(s['rss_first_mb'], '{:.1f}'):>8}{fmt(s['cache_first_mb'], '{:.1f}'):>7}  {ratio_text:<28}{target_text:<22}"
            f"{fmt(cpu['server'], '{:.0f}')+'/'+fmt(cpu['pg'], '{:.0f}')+'/'+fmt(cpu['load'], '{:.0f}')+'/'+fmt(cpu['other'], '{:.0f}'):>25}"
            f"{per_request(s, 'server')+'/'+per_request(s, 'pg'):>15}"
            + (f"  ({s['errors']} errors)" if s["errors"] else ""))

    printed = set()
    for label, title, base, target, p99_target in SCENARIOS:
        title = title.format(search_types=f"{args.search_types:,}")
        s = summarize(results, label)
        if s is None:
            continue
        b = baselines.get(base) or summarize(results, base)  # a scenario can be the baseline of another
        if label in printed and b is None:
            continue  # a second comparison of a scenario whose baseline did not run
        printed.add(label)
        rows = ROWS.get(label, 1)
        ratio = s["rps"] * rows / b["rps"] if b and b["rps"] else None
        digits = 2 if ratio is None or ratio >= 0.1 else 4  # a heavy check is a small fraction of a GET
        ratio_text = f"{ratio:.{digits}f}× {base}" + (" rows" if rows > 1 else "") if ratio is not None else "-"
        target_text = ""
        if target is not None and ratio is not None:
            ok = ratio >= target
            target_text = f"≥{target:.1f}× {verdict(ok)}"
            targets.append((f"{title}: ≥ {target:.1f}× {base}", ok, f"{ratio:.2f}×"))
        if p99_target is not None and s["p99_ms"] is not None:
            ok = s["p99_ms"] <= p99_target
            target_text += (", " if target_text else "") + f"p99≤{p99_target:g} {verdict(ok)}"
            targets.append((f"{title}: p99 ≤ {p99_target:g} ms", ok, f"{s['p99_ms']:.2f} ms"))
        row(title, s, ratio_text, target_text)
        pg_line(s)
        d = s.get("delivery")
        if d:
            missing = d["expected"] - d["delivered"]
            add(f"{'':<34}  {d['delivered']:,} of {d['expected']:,} events delivered "
                f"({d['per_run']:,} per run; published at {fmt(d['publish_rps'], '{:,.0f}')}/s), {d['duplicates']} duplicates, "
                + ("signatures not verified (standardwebhooks not importable; deploy/dev.sh test installs it)" if d["verified"] is None
                   else f"{d['verified']:,} signatures verified by standardwebhooks"))
            targets.append((f"webhooks: every change delivered, ≤ {d['bound_s']:.0f} s after the last publish",
                            missing == 0 and d["verified"] in (None, d["delivered"]),
                            f"{d['delivered']:,}/{d['expected']:,}" + (f" ({missing:,} MISSING)" if missing else "")
                            + ("" if d["verified"] in (None, d["delivered"]) else f", {d['delivered'] - d['verified']} bad signatures")))
        if label == "list_app" and s["rps"]:
            add(f"{'':<34}  = {s['rps'] / 50:,.1f} full walks/s of 5,000 versions ({s['rps'] * 100:,.0f} versions/s)")
    add("-" * len(header))
    add("baselines (the ceilings; RSS is not sampled for them):")
    for label, title in BASELINES:
        s = baselines.get(label)
        if s is not None:
            row(title, dict(s, rss_first_mb=None, cache_first_mb=None), "", "")
            pg_line(s)
    rss_values = [summarize(results, label) for label, *_ in SCENARIOS]
    rss = max([s["rss_max_mb"] for s in rss_values if s and s["rss_max_mb"] is not None], default=None)
    hwm = max([s["hwm_mb"] for s in rss_values if s and s["hwm_mb"] is not None], default=None)
    if rss is not None:
        beyond_cache = max([s["rss_first_mb"] - (s["cache_first_mb"] or 0) for s in rss_values
                            if s and s["rss_first_mb"] is not None], default=0)
        targets.append((f"registry RSS ≤ {RSS_TARGET_MB:.0f} MB (max VmRSS sampled; VmHWM {fmt(hwm, '{:.1f}')} MB)",
                        rss <= RSS_TARGET_MB, f"{rss:.1f} MB (1st run: up to {beyond_cache:.1f} MB beyond the cache)"))
    add("")
    add("req/s, p50, p99: median of the runs (wrk --latency; pgbench: per-transaction log). RSS: highest VmRSS")
    add("of the serving registry sampled every 100 ms, and cache: its response-cache bytes after the run")
    add("(/metrics), both in the first run, where memory grows with each working set; the targets line has the")
    add("highest RSS of all runs.")
    add("CPU %: of one core, median of the runs (2 cores = 200): srv = serving process (registry or nginx),")
    add("pg = PostgreSQL, load = wrk or pgbench, other = the rest of the machine (other sessions: noise).")
    add("µs/req: CPU microseconds per request of the serving process and of PostgreSQL (pgbench rows: pg).")
    add("Lists are compared in rows per second (5 per list of one type, 100 per page) with the one-row SELECT.")
    add("webhooks: req/s = deliveries/s from the first publish's answer to the last receipt; p50/p99 = per")
    add("event, publish answer (after its commit) → first arrival at the receiver; srv = both registries (either")
    add("may deliver); PostgreSQL per request = per change, its publish and its delivery. The POST loop baseline")
    add("sends the same receiver delivery-shaped signed POSTs one at a time, each on a new connection. CPU % of")
    add("both rows is over the script's own window, first send to last receipt (start-up and set-up left out).")
    if micro:
        add("")
        add("Parse / validate / form, ns per KB of schema text (fastest of 5 batches), ratio to the parse:")
        by_file = {}
        for m in micro:
            by_file.setdefault((m["bytes"], m["file"]), {})[m["step"]] = m
        add(f"{'schema':<12}{'parse':>14}{'validate':>22}{'form':>22}{'dry run':>22}{'JSON write':>22}{'SHA-256':>22}")
        for (size, _), steps in sorted(by_file.items()):
            parse = steps["parse"]["ns"]
            cells = [f"{steps['parse']['ns_per_kb']:>9,} ns/KB"]
            for step in ("validate", "form", "dryrun", "write", "sha256"):
                s = steps.get(step)
                cells.append(f"{s['ns_per_kb']:>9,} ns/KB {s['ns'] / parse:>5.2f}×" if s else "-")
            add(f"{size:>6,} B    {cells[0]:>14}" + "".join(f"{c:>22}" for c in cells[1:]))
            if size > 60_000 and "form" in steps:
                ratio = steps["form"]["ns"] / parse
                targets.append((f"form of a {size:,} B schema < {FORM_TARGET:.0f}× its parse", ratio < FORM_TARGET,
                                f"{ratio:.2f}× ({steps['form']['ns'] / 1e6:.2f} ms vs {parse / 1e6:.2f} ms)"))
        add("form = the /form body as the handler writes it (FormWriter, payload bounds) from the validated document; dry run = the CPU")
        add("part of POST …:validate (validate + compatibility against the same text + payload bound + form);")
        add("JSON write = the text written as a JSON string (how GET and list embed json_schema); SHA-256 = what")
        add("hashing a text costs per KB (ETags come from the stored content hash, not from hashing bodies).")
    add("")
    add("Targets (printed, never failing):")
    for text, ok, value in targets:
        add(f"  {verdict(ok)}  {text:<68} {value}")
    output = "\n".join(lines) + "\n"
    sys.stdout.write(output)
    if args.out:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command_name", required=True)
    r = sub.add_parser("run")
    r.add_argument("--label", required=True)
    r.add_argument("--run", type=int, default=1)
    r.add_argument("--out", required=True)
    r.add_argument("--server-pid", type=int, default=0)
    r.add_argument("--pg-pid", type=int, default=0)
    r.add_argument("--metrics")
    r.add_argument("--also-server-pid", type=int, action="append", help="another serving process whose CPU counts as the server's")
    r.add_argument("--kind", choices=("wrk", "pgbench", "json"), default="wrk")
    r.add_argument("--pgbench-log-dir")
    r.add_argument("--pg-stats", help="psql command line; records transactions, WAL flushes and WAL bytes per request")
    r.add_argument("command", nargs=argparse.REMAINDER)
    p = sub.add_parser("report")
    p.add_argument("--results", required=True)
    p.add_argument("--micro")
    p.add_argument("--out")
    p.add_argument("--mode", default="full")
    p.add_argument("--search-types", type=int, required=True, help="how many types run.sh seeded for the search scenario")
    p.add_argument("--info", action="append")
    p.add_argument("--data-summary")
    args = parser.parse_args()
    run(args) if args.command_name == "run" else report(args)


if __name__ == "__main__":
    main()
