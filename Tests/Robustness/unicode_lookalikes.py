#!/usr/bin/env python3
"""Look-alike names through the caches, against the real binary on two replicas.

Swift's String == calls NFC and NFD spellings (and a Kelvin sign and K) equal, while PostgreSQL,
JSON and JSON Schema see two names. Each step reads through the response and lookup caches of
both replicas, so a cache keyed by String would serve one name's data for another.

  publish       seven look-alike types at version 7: Café NFC and NFD, Flight with and without a
                zero-width space, full-width Ｆlight, Kelvin with a K and with a Kelvin sign
  read          GET, form, :check and :preview of each, twice on each replica (the second read
                is a cache hit): each name answers with its own schema
  list          the list and the list narrowed to each name hold exactly that name
  delete        NFD, zero-width and Kelvin-sign types are deleted right after their partner was
                cached; each is then 404 on both replicas, its partner still served as itself
  relist        the lists hold exactly the names left
  applications  look-alike application codes of two accounts stay two applications through the
                lookup cache of each replica
  validate      :validate answers 200 with a warning naming a look-alike type name and key

    python3 Tests/Robustness/unicode_lookalikes.py [--quick]

Ends with a line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import sys
import time
import urllib.parse

from robustlib import Stack, closing_line, request

RESULTS: list = []  # (name, ok, figures)

NAMES = ["Caf\u00e9", "Cafe\u0301", "Flight", "Fl\u200bight", "\uff26light", "Kelvin", "\u212aelvin"]
DELETED = [1, 3, 6]  # each right after its partner, the name before it
VERSION = 7


def record(name: str, ok: bool, figures: str) -> None:
    RESULTS.append((name, ok, figures))
    print(f"  {'ok    ' if ok else 'FAILED'} {name:14} {figures}", flush=True)


def encoded(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def schema(index: int) -> str:
    return ('{"type":"object","description":"look-alike %d","properties":{"field%d":{"type":"string"}}}'
            % (index, index))


class Client:
    def __init__(self, url: str, token: str, app: str):
        self.url, self.token, self.app = url, token, app

    def call(self, method: str, target: str, body=None):
        return request(self.url, method, target, body=body, token=self.token)

    def version_path(self, index: int, suffix: str = "") -> str:
        return f"/api/live_activity_schemas/{encoded(NAMES[index])}/{VERSION}{suffix}?application={encoded(self.app)}"

    def listed(self, name: str | None = None) -> list:
        query = f"&attributesType={encoded(name)}" if name is not None else ""
        response = self.call("GET", f"/api/live_activity_schemas?application={encoded(self.app)}{query}")
        if response.status != 200:
            raise RuntimeError(f"list answered {response.status}: {response.body[:200]!r}")
        return [item["attributes_type"] for item in response.json()["schemas"]]

    def served_as_itself(self, index: int) -> list:
        """What GET, the form, :check and :preview of NAMES[index] got wrong (empty: nothing)."""
        name, wrong = NAMES[index], []
        got = self.call("GET", self.version_path(index))
        if got.status != 200 or got.json()["schema"]["json_schema"] != schema(index):
            wrong.append(f"GET {name!a}: {got.status} {got.body[:120]!r}")
        form = self.call("GET", self.version_path(index, "/form"))
        if form.status != 200 or form.json()["form"]["content"]["fields"][0]["name"] != f"field{index}":
            wrong.append(f"form {name!a}: {form.status} {form.body[:120]!r}")
        field = {f"field{index}": "x"}
        check = self.call("POST", f"/api/live_activity_schemas/{encoded(name)}/{VERSION}:check",
                          {"application": self.app, "event": "update", "content_state": field})
        if check.status != 200 or check.json() != {"valid": True, "problems": []}:
            wrong.append(f":check {name!a}: {check.status} {check.body[:160]!r}")
        preview = self.call("POST", "/api/live_activities:preview", {
            "application": self.app, "bundle_id": "com.example.flights", "live_activity_id": "act-1",
            "live_activity": {"event": "update", "content-state": field, "attributes-type": name}})
        if preview.status != 200 or preview.json().get("problems") != []:
            wrong.append(f":preview {name!a}: {preview.status} {preview.body[:160]!r}")
        return wrong

    def gone(self, index: int) -> list:
        """The routes that still answer for deleted NAMES[index]."""
        answering = []
        for suffix in ["", "/form"]:
            status = self.call("GET", self.version_path(index, suffix)).status
            if status != 404:
                answering.append(f"GET{suffix} {NAMES[index]!a}: {status}")
        check = self.call("POST", f"/api/live_activity_schemas/{encoded(NAMES[index])}/{VERSION}:check",
                          {"application": self.app, "event": "update", "content_state": {}})
        if check.status != 404:
            answering.append(f":check {NAMES[index]!a}: {check.status}")
        return answering


def publish(a: Client) -> None:
    statuses = [a.call("POST", "/api/live_activity_schemas", {
        "application": a.app, "attributesType": name, "jsonSchema": schema(index), "version": VERSION}).status
        for index, name in enumerate(NAMES)]
    record("publish", statuses == [200] * len(NAMES), f"{len(NAMES)} look-alike types at version {VERSION}: {statuses}")


def read(clients: list, rounds: int) -> None:
    wrong, reads = [], 0
    for _ in range(rounds):
        for client in clients:
            for index in range(len(NAMES)):
                wrong += client.served_as_itself(index)
                reads += 1
    record("read", not wrong, f"{reads} reads of GET, form, :check, :preview on {len(clients)} replicas"
           + (f"; wrong: {wrong[:3]}" if wrong else ""))


def lists(clients: list, names: list, step: str) -> None:
    expected = sorted(names, key=lambda n: n.encode())
    wrong = []
    for client in clients:
        everything = client.listed()
        if everything != expected:
            wrong.append(f"{client.url}: {[n.encode() for n in everything]}")
        for name in names:
            narrowed = client.listed(name)
            if narrowed != [name]:
                wrong.append(f"{client.url} {name!a}: {narrowed!a}")
    record(step, not wrong, f"{len(names)} names listed alone and together on {len(clients)} replicas"
           + (f"; wrong: {wrong[:3]}" if wrong else ""))


def delete(a: Client, b: Client) -> None:
    wrong, waited = [], []
    for index in DELETED:
        partner = index - 1
        wrong += a.served_as_itself(partner) + b.served_as_itself(partner)
        status = a.call("DELETE", a.version_path(index)).status
        if status != 200:
            wrong.append(f"DELETE {NAMES[index]!a}: {status}")
        wrong += a.served_as_itself(partner) + a.gone(index)
        started = time.monotonic()  # the other replica learns of the delete from the change feed
        while b.gone(index) and time.monotonic() - started < 5:
            time.sleep(0.02)
        waited.append(time.monotonic() - started)
        wrong += b.served_as_itself(partner) + b.gone(index)
        again = b.call("DELETE", b.version_path(index)).status
        if again != 404:
            wrong.append(f"second DELETE {NAMES[index]!a}: {again}")
    record("delete", not wrong, f"{len(DELETED)} deleted, replica B saw each within {max(waited):.2f} s"
           + (f"; wrong: {wrong[:3]}" if wrong else ""))


def applications(stack: Stack, replicas: list) -> None:
    clients = []
    for code in ["Caf\u00e9-app", "Cafe\u0301-app", "Kelvin-app", "\u212aelvin-app"]:
        account = stack.admin("create-account", f"look-alike {code}")
        app = stack.admin("create-application", "--account", account, "--code", code, "--name", code)
        token = stack.admin("issue-token", "--account", account)
        clients.append((token, app))
    for index, (token, app) in enumerate(clients):
        Client(replicas[0].url, token, app).call("POST", "/api/live_activity_schemas", {
            "application": app, "attributesType": "Owned", "jsonSchema": schema(index)})
    wrong, reads = [], 0
    for replica in replicas + replicas:
        for index, (token, app) in enumerate(clients):
            response = Client(replica.url, token, app).call(
                "GET", f"/api/live_activity_schemas?application={encoded(app)}")
            reads += 1
            texts = [s["json_schema"] for s in response.json().get("schemas", [])] if response.status == 200 else []
            if texts != [schema(index)]:
                wrong.append(f"{app!a} on {replica.name}: {response.status} {response.body[:120]!r}")
    record("applications", not wrong, f"{len(clients)} look-alike codes, {reads} lists through the lookup caches"
           + (f"; wrong: {wrong[:3]}" if wrong else ""))


def validate(a: Client) -> None:
    response = a.call("POST", "/api/live_activity_schemas:validate", {
        "application": a.app, "attributesType": "Cafe\u0301",
        "jsonSchema": '{"type":"object","properties":{"Fl\\u0456ght":{"type":"string"}}}'})
    paths = [w.get("path") for w in response.json().get("warnings", [])] if response.status == 200 else []
    record("validate", paths == ["attributesType", "jsonSchema.properties.Fl\u0456ght"],
           f"{response.status}, warnings at {paths!a}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    stack = Stack.start("lookalikes")
    print("\nUnicode look-alike names through the caches (the binary, two replicas)")
    replicas = [stack.add_replica(name, REGISTRY_AUTH_CACHE_SECONDS=10) for name in ("a", "b")]
    a, b = (Client(replica.url, stack.token, stack.app) for replica in replicas)
    steps = [
        ("publish", lambda: publish(a)),
        ("read", lambda: read([a, b], 2 if args.quick else 4)),
        ("list", lambda: lists([a, b], NAMES, "list")),
        ("delete", lambda: delete(a, b)),
        ("relist", lambda: lists([a, b], [n for i, n in enumerate(NAMES) if i not in DELETED], "relist")),
        ("applications", lambda: applications(stack, replicas)),
        ("validate", lambda: validate(a)),
    ]
    for name, step in steps:
        try:
            step()
        except Exception as error:  # a broken step is a failure, not a crash of the suite
            record(name, False, f"{type(error).__name__}: {error}")
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    closing_line(passed, len(RESULTS) - passed)
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
