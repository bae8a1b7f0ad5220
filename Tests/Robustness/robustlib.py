"""Shared by durability.py and abuse.py (Python 3 standard library only).

A throwaway stack made with Tests/Scripts/stack.sh (PostgreSQL cluster, migrations, a tenant),
then owned by this process: it starts and kills `schema-registry serve` replicas itself, restarts
PostgreSQL, and removes everything at exit. Only addresses on 127.0.0.1 are used.
"""

from __future__ import annotations

import atexit
import http.client
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STACK_SH = os.path.join(ROOT, "Tests", "Scripts", "stack.sh")


def say(message: str) -> None:
    print(f"robustness: {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def binary() -> str:
    path = os.environ.get("STACK_BIN", ".build/debug/schema-registry")
    return path if os.path.isabs(path) else os.path.join(ROOT, path)


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes

    def json(self):
        return json.loads(self.body)


def request(url: str, method: str, target: str, body=None, token: str | None = None,
            headers: dict | None = None, timeout: float = 10.0) -> Response:
    """One HTTP request on a new connection. Raises OSError (incl. timeouts) on transport failures."""
    host, port = url.replace("http://", "").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = f"Api {token}"
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        connection.request(method, target, body=data, headers=all_headers)
        response = connection.getresponse()
        return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    except http.client.HTTPException as error:  # e.g. RemoteDisconnected, BadStatusLine
        raise ConnectionError(f"{type(error).__name__}: {error}") from error
    finally:
        connection.close()


@dataclass
class Replica:
    name: str
    port: int
    log_path: str
    settings: dict
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None


@dataclass
class Stack:
    """PostgreSQL + tenant from stack.sh; replicas started here."""

    env: dict
    replicas: list = field(default_factory=list)
    keep: bool = False

    @property
    def dir(self) -> str:
        return self.env["STACK_DIR"]

    @property
    def token(self) -> str:
        return self.env["STACK_TOKEN"]

    @property
    def app(self) -> str:
        return self.env["STACK_APP"]

    @classmethod
    def start(cls, tenant: str = "robust", pg_options: str = "") -> "Stack":
        # stack.sh's own EXIT trap would stop the cluster when this bash ends: drop it, this
        # process stops everything in stop().
        script = f"""
            set -e
            . {shlex.quote(STACK_SH)}
            stack_start_postgres
            trap - EXIT INT TERM
            stack_migrate
            stack_tenant {shlex.quote(tenant)}
            env | grep '^STACK_' || true
        """
        env = dict(os.environ)
        if pg_options:
            env["STACK_PG_OPTIONS"] = pg_options
        result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=ROOT)
        values = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
        if result.returncode != 0 or "STACK_TOKEN" not in values:
            sys.stderr.write(result.stderr)
            if values.get("STACK_DIR"):
                cls(values).stop()
            raise RuntimeError("could not start the stack (see above)")
        stack = cls(values, keep=os.environ.get("STACK_KEEP") == "1")
        atexit.register(stack.stop)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: sys.exit(130))
        return stack

    # --- the binary -------------------------------------------------------------------

    def base_settings(self) -> dict:
        settings = {"DATABASE_URL": self.env["STACK_DATABASE_URL"]}
        migrations = os.path.join(ROOT, "migrations")
        if os.path.isdir(migrations):
            settings["REGISTRY_MIGRATIONS_DIR"] = migrations
        return settings

    def admin(self, *args: str) -> str:
        env = dict(os.environ, **self.base_settings())
        result = subprocess.run([binary(), "admin", *args], capture_output=True, text=True, env=env, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"admin {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def add_replica(self, name: str, **settings) -> Replica:
        replica = Replica(name, free_port(), os.path.join(self.dir, f"{name}.log"),
                          {k: str(v) for k, v in settings.items()})
        self.replicas.append(replica)
        self.start_replica(replica)
        return replica

    def start_replica(self, replica: Replica, timeout: float = 60.0) -> float:
        """Starts the process and waits for /readyz; returns the seconds it took."""
        env = dict(os.environ, **self.base_settings(), REGISTRY_LISTEN=f"127.0.0.1:{replica.port}", **replica.settings)
        started = time.monotonic()
        log = open(replica.log_path, "ab")
        replica.process = subprocess.Popen([binary(), "serve"], stdout=log, stderr=subprocess.STDOUT, env=env,
                                           stdin=subprocess.DEVNULL)
        log.close()
        deadline = started + timeout
        while time.monotonic() < deadline:
            if replica.process.poll() is not None:
                raise RuntimeError(f"{replica.name} exited during start-up; see {replica.log_path}")
            try:
                if request(replica.url, "GET", "/readyz", timeout=2).status == 200:
                    return time.monotonic() - started
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{replica.name} was not ready within {timeout} s; see {replica.log_path}")

    def kill_replica(self, replica: Replica, sig: int = signal.SIGKILL) -> None:
        if replica.process and replica.process.poll() is None:
            replica.process.send_signal(sig)
            try:
                replica.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                replica.process.kill()
                replica.process.wait()

    # --- PostgreSQL -------------------------------------------------------------------

    def _stack_bash(self, body: str, check: bool = True) -> subprocess.CompletedProcess:
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        script = f"set -e; . {shlex.quote(STACK_SH)}; trap - EXIT; export {exports}; {body}"
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, check=check)

    def pg_ctl(self, *args: str) -> None:
        quoted = " ".join(shlex.quote(a) for a in args)
        self._stack_bash(f'stack_as_pg "$(stack_pg_bindir)/pg_ctl" -D "$STACK_DIR/pgdata" -w -t 60 {quoted} >/dev/null')

    def postmaster_options(self) -> str:
        """The server options of the running cluster (what `pg_ctl start -o` needs to start it
        the same way again), from postmaster.opts."""
        words = shlex.split(open(os.path.join(self.dir, "pgdata", "postmaster.opts")).read())
        return " ".join(shlex.quote(w) for w in words[3:])  # past the binary and -D DIR

    def psql(self, sql: str) -> str:
        """Runs SQL as the superuser on the stack's database; returns unaligned tuples-only output."""
        return self._stack_bash(f"stack_psql -At -c {shlex.quote(sql)}").stdout

    # --- cleanup ----------------------------------------------------------------------

    def stop(self) -> None:
        for replica in self.replicas:
            self.kill_replica(replica, signal.SIGTERM)
        self.replicas = []
        if self.env.get("STACK_DIR"):
            if self.keep:
                os.environ["STACK_KEEP"] = "1"
            self._stack_bash("stack_stop", check=False)
            self.env["STACK_DIR"] = ""


def log_leaks(paths: list, secrets: list) -> list:
    """The (file, secret prefix) pairs where a secret appears in a log file."""
    found = []
    for path in paths:
        try:
            text = open(path, "rb").read()
        except OSError:
            continue
        for secret in secrets:
            if secret and secret.encode() in text:
                found.append((os.path.basename(path), secret[:10] + "…"))
    return found


def rss_mb(pid: int) -> float:
    """The resident set size of a running process in MiB, read from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def closing_line(passed: int, failed: int) -> None:
    print(f"{passed} passed, {failed} failed", flush=True)
