#!/usr/bin/env python3
"""Red-team reproductions on the checking paths, against the real binary on PostgreSQL.

Every request below is sent with a read-scope token (the lowest scope that may check values),
while a second thread asks for /healthz every 50 ms. A case fails when any answer is a 5xx,
when it takes longer than its bound, or when any /healthz during it takes longer than 1 s
(a backtracking pattern once held the event loop for 96 s).

  evil-pattern   `^(a+)+$` against 21 a's and `!` (and without the `!`), four such checks at
                 once, and thousands of a's: 200 with the right `valid`, fast (past 20,000 a's
                 the step budget may answer "not fully checked" instead of valid: a NOTE)
  many-items     ~660 KB of array items checked against `^[A-Z]{1,2}[0-9]{1,3}$` and against
                 an 853-byte alternation, once and then four at once: an answer within 5 s
                 (10 s at once; a "not fully checked" problem from the step budget is an
                 answer; a stall is not)
  ref-chain      a 13 KB schema (a 300-step `$ref` chain used 150 times) and a 53 KB one
                 (1,200 steps used 600 times): publish, form, `:validate`, `:check`, a second
                 version and `:diff`, each within 2 s; valid values are answered valid (the
                 compiler collapses the bare `$ref` steps, so even the 1,200-step chain, deeper
                 than the evaluator's depth bound, gets its exact answer)
  memory         peak RSS of the server under 256 MB, and printed after each case

Prints for each request its status and latency, and per case the /healthz p50/p99/max and the
server's peak and current RSS.

    python3 Tests/Robustness/check_stalls.py [--quick]

--quick (CI) keeps it under a minute: the long inputs go up to 20,000 a's instead of 200,000,
and the chain schemas are checked once rather than three times.
Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from robustlib import Stack, closing_line, request, rss_mb, say

RESULTS: list = []  # (name, ok, figures)
HEALTH_BOUND_S = 1.0
PEAK_RSS_LIMIT_MB = 256
SCHEMAS = "/api/live_activity_schemas"


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:14} {figures}", flush=True)


class HealthWatch:
    """Asks for /healthz every 50 ms on a new connection and samples the server's RSS, so a
    request that holds an event loop shows up as a slow (or failed) probe."""

    def __init__(self, replica):
        self.replica = replica
        self.peak_rss = 0.0
        self.case_peak_rss = 0.0
        self.latencies: list = []
        self.failures = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopped.is_set():
            rss = rss_mb(self.replica.pid)
            self.peak_rss = max(self.peak_rss, rss)
            self.case_peak_rss = max(self.case_peak_rss, rss)
            started = time.monotonic()
            try:
                status = request(self.replica.url, "GET", "/healthz", timeout=30).status
                if status != 200:
                    raise ConnectionError(f"status {status}")
                self.latencies.append(time.monotonic() - started)
            except OSError:
                self.failures += 1
                self.latencies.append(time.monotonic() - started)
            time.sleep(0.05)

    def take(self) -> tuple:
        """(ok, figures) for the samples since the last call, which it resets."""
        samples, failures, peak = self.latencies, self.failures, self.case_peak_rss
        self.latencies, self.failures, self.case_peak_rss = [], 0, 0.0
        if not samples:
            return False, "/healthz: no probe finished"
        ordered = sorted(samples)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        worst = ordered[-1]
        ok = failures == 0 and worst <= HEALTH_BOUND_S
        return ok, (f"/healthz p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
                    f"max {worst * 1000:.1f} ms ({len(samples)} probes, {failures} failed); "
                    f"RSS peak {peak:.0f} MB, now {rss_mb(self.replica.pid):.0f} MB")

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()


class Case:
    """One red-team case: its timed requests, then the /healthz figures over all of them."""

    def __init__(self, name: str, watch: HealthWatch):
        self.name, self.watch = name, watch
        self.ok = True
        self.lines: list = []
        watch.take()  # the case's probes start now

    def call(self, label: str, method: str, target: str, body=None, token: str = "", bound: float = 2.0,
             expect=None) -> object:
        """Sends one request; fails the case on a 5xx, a transport error, a latency past `bound`
        or when `expect(status, json)` says no. Returns the parsed answer (or None)."""
        started = time.monotonic()
        try:
            response = request(self.watch.replica.url, method, target, body, token=token, timeout=max(30.0, bound * 4))
        except OSError as error:
            seconds = time.monotonic() - started
            self.ok = False
            self.lines.append(f"{label}: {type(error).__name__} after {seconds:.2f} s  FAILED")
            return None
        seconds = time.monotonic() - started
        try:
            answer = json.loads(response.body) if response.body else None
        except ValueError:
            answer = None
        verdict = response.status < 500 and seconds <= bound and (expect is None or expect(response.status, answer))
        self.ok = self.ok and verdict
        self.lines.append(f"{label}: {response.status} in {seconds * 1000:.0f} ms{describe(answer)}"
                          f"{'' if verdict else '  FAILED (bound ' + format(bound, '.1f') + ' s)'}")
        return answer

    def finish(self) -> None:
        health_ok, health = self.watch.take()
        record(self.name, self.ok and health_ok, health)
        for line in self.lines:
            print(f"{'':24}{line}", flush=True)


def describe(answer) -> str:
    """The part of a check answer worth a line: valid and the first problem."""
    if not isinstance(answer, dict) or "valid" not in answer:
        if isinstance(answer, dict) and "message" in answer:
            return f" ({answer['message'][:100]})"
        return ""
    problems = answer.get("problems") or []
    first = f"; {problems[0].get('message', '')[:90]}" if problems else ""
    return f" (valid {str(answer['valid']).lower()}, {len(problems)} problem(s){first})"


def valid_is(expected: bool):
    return lambda status, answer: status == 200 and isinstance(answer, dict) and answer.get("valid") is expected


def answered(status, answer) -> bool:
    return status == 200 and isinstance(answer, dict) and "valid" in answer


def not_fully_checked(answer) -> bool:
    return isinstance(answer, dict) and any("not fully checked" in p.get("message", "") for p in answer.get("problems", []))


def valid_or_unchecked(status, answer) -> bool:
    """Valid, or ended by the work budget: a bounded answer, not a wrong one."""
    return answered(status, answer) and (answer["valid"] is True or not_fully_checked(answer))


def publish(stack: Stack, case: Case, attributes_type: str, schema: str, bound: float = 2.0) -> object:
    answer = case.call(f"publish {attributes_type} ({len(schema) / 1024:.1f} KB)", "POST", SCHEMAS,
                       {"application": stack.app, "attributesType": attributes_type, "jsonSchema": schema},
                       token=stack.token, bound=bound, expect=lambda status, _: status == 200)
    return answer["schema"]["version"] if isinstance(answer, dict) and "schema" in answer else None


def check_target(attributes_type: str, version) -> str:
    return f"{SCHEMAS}/{attributes_type}/{version}:check"


def evil_pattern(stack: Stack, reader: str, watch: HealthWatch, quick: bool) -> None:
    case = Case("evil-pattern", watch)
    schema = json.dumps({"type": "object", "properties": {"v": {"type": "string", "pattern": "^(a+)+$"}}})
    version = publish(stack, case, "EvilPatternAttributes", schema)
    if version is None:
        return case.finish()
    target = check_target("EvilPatternAttributes", version)

    def check(value: str, expected: bool, label: str) -> None:
        # Past 20,000 characters the step budget may end the match first: bounded, and said so.
        may_run_out = expected and len(value) > 20_000
        answer = case.call(label, "POST", target,
                           {"application": stack.app, "event": "update", "content_state": {"v": value}}, token=reader,
                           expect=valid_or_unchecked if may_run_out else valid_is(expected))
        if may_run_out and not_fully_checked(answer):
            case.lines.append(f"NOTE: {len(value):,} a's answered \"not fully checked\", not valid")

    check("a" * 21 + "!", False, "21 a's + '!'")
    check("a" * 21, True, "21 a's")
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda index: check("a" * (18 + index) + "!", False, f"at once #{index + 1}: {18 + index} a's + '!'"),
                      range(4)))
    for length in ((2_000, 20_000) if quick else (2_000, 20_000, 200_000)):
        check("a" * length + "!", False, f"{length:,} a's + '!'")
        check("a" * length, True, f"{length:,} a's")
    case.finish()


def alternation_pattern() -> tuple:
    """An 853-byte alternation of 77 station names, and the names."""
    names = [f"Station{index:03d}" for index in range(76)] + ["Station076A"]
    pattern = "^(?:" + "|".join(names) + ")$"
    return pattern, names


def many_items(stack: Stack, reader: str, watch: HealthWatch, quick: bool) -> None:
    case = Case("many-items", watch)
    alternation, names = alternation_pattern()
    body_target = 660 * 1024
    for attributes_type, pattern, item in (
            ("ShortCodeItemsAttributes", "^[A-Z]{1,2}[0-9]{1,3}$", lambda index: f"{'AB'[: 1 + index % 2]}{index % 1000}"),
            ("AlternationItemsAttributes", alternation, lambda index: names[index % len(names)])):
        schema = json.dumps({"type": "object", "properties": {
            "codes": {"type": "array", "items": {"type": "string", "pattern": pattern}}}})
        version = publish(stack, case, attributes_type, schema)
        if version is None:
            continue
        items, size, index = [], 0, 0
        while size < body_target:
            value = item(index)
            items.append(value)
            size += len(value) + 4  # the quotes, the comma and the space json.dumps writes
            index += 1
        body = json.dumps({"application": stack.app, "event": "update", "content_state": {"codes": items}}).encode()
        label = f"{len(items):,} items, {len(body) / 1024:.0f} KB, pattern {len(pattern)} B"
        target = check_target(attributes_type, version)
        case.call(label, "POST", target, body, token=reader, bound=5.0, expect=answered)
        with ThreadPoolExecutor(4) as pool:  # more at once than there are cores (and event loops)
            list(pool.map(lambda index: case.call(f"at once #{index + 1}: {label}", "POST", target, body, token=reader,
                                                  bound=10.0, expect=answered), range(4)))
    case.finish()


def chain_schema(steps: int, uses: int, max_length: int = 5) -> str:
    """`$defs` d0…d{steps-1}, each a `$ref` to the next and the last a short string; `uses`
    properties that each start the chain at d0."""
    defs = {f"d{index}": {"$ref": f"#/$defs/d{index + 1}"} for index in range(steps - 1)}
    defs[f"d{steps - 1}"] = {"type": "string", "maxLength": max_length}
    properties = {f"p{index}": {"$ref": "#/$defs/d0"} for index in range(uses)}
    return json.dumps({"type": "object", "$defs": defs, "properties": properties}, separators=(",", ":"))


def ref_chain(stack: Stack, reader: str, watch: HealthWatch, quick: bool, steps: int, uses: int) -> None:
    """Every step on the chain, each within its bound, with exact answers."""
    attributes_type = f"RefChain{steps}x{uses}Attributes"
    case = Case(f"ref-chain-{steps}", watch)
    first, second = chain_schema(steps, uses), chain_schema(steps, uses, max_length=4)
    version = publish(stack, case, attributes_type, first)
    if version is None:
        return case.finish()
    app = stack.app
    values = {f"p{index}": "abc" for index in range(uses)}
    for round_number in range(1 if quick else 3):
        suffix = "" if round_number == 0 else f" (again, #{round_number + 1})"
        case.call(f"GET form{suffix}", "GET", f"{SCHEMAS}/{attributes_type}/{version}/form?application={app}",
                  token=reader, expect=lambda status, _: status == 200)
        case.call(f":validate{suffix}", "POST", f"{SCHEMAS}:validate",
                  {"application": app, "attributesType": attributes_type, "jsonSchema": second}, token=reader,
                  expect=lambda status, _: status in (200, 409))
        case.call(f":check {uses} values{suffix}", "POST", check_target(attributes_type, version),
                  {"application": app, "event": "update", "content_state": values}, token=reader,
                  expect=valid_is(True))
        case.call(f":check, one too long{suffix}", "POST", check_target(attributes_type, version),
                  {"application": app, "event": "update", "content_state": dict(values, p0="abcdef")}, token=reader,
                  expect=valid_is(False))
    newer = publish(stack, case, attributes_type, second)
    if newer is not None:
        for round_number in range(1 if quick else 3):
            suffix = "" if round_number == 0 else f" (again, #{round_number + 1})"
            case.call(f":diff {newer} against {version}{suffix}", "GET",
                      f"{SCHEMAS}/{attributes_type}/{newer}:diff?application={app}&against={version}", token=reader,
                      expect=lambda status, _: status == 200)
    case.finish()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    say("starting the stack")
    stack = Stack.start(tenant="check-stalls")
    reader = stack.admin("issue-token", "--account", stack.env["STACK_ACCOUNT"], "--scope", "read")
    replica = stack.add_replica("stalls")
    watch = HealthWatch(replica)
    for name, step in (("evil-pattern", lambda: evil_pattern(stack, reader, watch, args.quick)),
                       ("many-items", lambda: many_items(stack, reader, watch, args.quick)),
                       ("ref-chain-300", lambda: ref_chain(stack, reader, watch, args.quick, 300, 150)),
                       ("ref-chain-1200", lambda: ref_chain(stack, reader, watch, args.quick, 1200, 600))):
        try:
            step()
        except Exception as error:  # one broken case must not hide the others' figures
            record(name, False, f"{type(error).__name__}: {error}")
    time.sleep(2)
    after = rss_mb(replica.pid)
    watch.stop()
    record("memory", watch.peak_rss < PEAK_RSS_LIMIT_MB,
           f"peak RSS {watch.peak_rss:.0f} MB (bound {PEAK_RSS_LIMIT_MB}), {after:.0f} MB 2 s after the last case")
    stack.stop()
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    closing_line(passed, len(RESULTS) - passed)
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    raise SystemExit(main())
