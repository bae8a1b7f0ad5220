#!/usr/bin/env python3
"""Tests of check_deploy_artifacts.py: the deploy/ files pass against a sample `help` text, and
each kind of mistake the checker exists for is reported (on a mutated copy of deploy/).

  python3 Tests/Scripts/test_check_deploy_artifacts.py

Prints one line per case and `N passed, M failed`; exits 1 if any case failed.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHECKER = HERE / "check_deploy_artifacts.py"
SAMPLE_HELP = HERE / "fixtures" / "help-sample.txt"


def replace(relative: str, old: str, new: str):
    def mutate(root: Path) -> None:
        path = root / relative
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise AssertionError(f"{relative} no longer contains {old!r}: update this test")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return mutate


def help_without(line_start: str):
    def mutate(root: Path) -> None:
        lines = SAMPLE_HELP.read_text(encoding="utf-8").splitlines()
        (root / "help.txt").write_text("\n".join(l for l in lines if not l.lstrip().startswith(line_start)) + "\n")
    return mutate


# (name, mutation, expected exit status, text that must appear in the output)
CASES = [
    ("the deploy files pass", None, 0, " 0 failed"),
    ("unknown variable in compose", replace("deploy/compose.yaml", "REGISTRY_HTTP_WORKERS:", "REGISTRY_HTTP_WORKER:"),
     1, "REGISTRY_HTTP_WORKER: the binary reads it"),
    ("unknown variable in a Kubernetes env", replace("deploy/kubernetes/deployment.yaml", "name: REGISTRY_LOG_LEVEL", "name: REGISTRY_LOGLEVEL"),
     1, "sets REGISTRY_LOGLEVEL"),
    ("unknown variable in the systemd env file", replace("deploy/systemd/schema-registry.env.example", "REGISTRY_CACHE_BYTES=", "REGISTRY_CACHE_SIZE="),
     1, "sets REGISTRY_CACHE_SIZE"),
    ("unknown variable in Dockerfile ENV", replace("deploy/Dockerfile", "REGISTRY_MIGRATIONS_DIR=", "REGISTRY_MIGRATION_DIR="),
     1, "sets REGISTRY_MIGRATION_DIR"),
    ("variable the binary does not list yet", help_without("REGISTRY_CACHE_BYTES"), 1, "sets REGISTRY_CACHE_BYTES"),
    ("unknown command in compose", replace("deploy/compose.yaml", 'command: ["migrate"]', 'command: ["migrations"]'),
     1, "runs `migrations`"),
    ("unknown command in the Kubernetes Job", replace("deploy/kubernetes/migrate-job.yaml", 'args: ["migrate"]', 'args: ["upgrade"]'),
     1, "runs `upgrade`"),
    ("unknown admin subcommand in systemd", replace("deploy/systemd/schema-registry.service",
                                                   "ExecStartPre=/usr/local/bin/schema-registry migrate",
                                                   "ExecStartPre=/usr/local/bin/schema-registry admin frobnicate"),
     1, "runs `admin frobnicate`"),
    ("unknown command in Dockerfile CMD", replace("deploy/Dockerfile", 'CMD ["serve"]', 'CMD ["server"]'),
     1, "CMD runs `server`"),
    ("readiness probe path", replace("deploy/kubernetes/deployment.yaml", "path: /readyz", "path: /health"),
     1, "readinessProbe path is /readyz"),
    ("liveness probe on the database check", replace("deploy/kubernetes/deployment.yaml", "path: /healthz", "path: /readyz"),
     1, "livenessProbe path is /healthz"),
    ("probe on the API port while REGISTRY_ADMIN_LISTEN is set", replace("deploy/kubernetes/deployment.yaml",
                                                                        "path: /healthz\n              port: admin",
                                                                        "path: /healthz\n              port: http"),
     1, "where the binary serves probes"),
    ("extra runtime package", replace("deploy/Dockerfile", "libpq5 libmicrohttpd12 libcurl4 ca-certificates",
                                      "libpq5 libmicrohttpd12 libcurl4 wget ca-certificates"),
     1, "also installs ['wget']"),
    ("missing runtime library", replace("deploy/Dockerfile", "libpq5 libmicrohttpd12 libcurl4 ca-certificates",
                                        "libpq5 libcurl4 ca-certificates"),
     1, "missing ['libmicrohttpd12']"),
    ("missing libcurl, which webhook deliveries load", replace("deploy/Dockerfile", "libmicrohttpd12 libcurl4 ca-certificates",
                                                              "libmicrohttpd12 ca-certificates"),
     1, "missing ['libcurl4']"),
    ("the GnuTLS libcurl, whose soname is never loaded", replace("deploy/Dockerfile", "libmicrohttpd12 libcurl4 ca-certificates",
                                                                 "libmicrohttpd12 libcurl3-gnutls ca-certificates"),
     1, "libcurl3-gnutls ships libcurl-gnutls.so.4"),
    ("the libcurl headers instead of the library", replace("deploy/Dockerfile", "libmicrohttpd12 libcurl4 ca-certificates",
                                                           "libmicrohttpd12 libcurl4-openssl-dev ca-certificates"),
     1, "libcurl4-openssl-dev is headers for building"),
    ("the curl program besides the library", replace("deploy/Dockerfile", "libmicrohttpd12 libcurl4 ca-certificates",
                                                     "libmicrohttpd12 libcurl4 curl ca-certificates"),
     1, "curl is the curl program"),
    ("recommended packages", replace("deploy/Dockerfile", "apt-get install -y -q --no-install-recommends libpq5",
                                     "apt-get install -y -q libpq5"),
     1, "uses --no-install-recommends"),
    ("YAML that does not parse", replace("deploy/kubernetes/pdb.yaml", "  maxUnavailable: 1", "  maxUnavailable: [1"),
     1, "pdb.yaml parses as YAML"),
    ("Secret key the Deployment does not find", replace("deploy/kubernetes/secret.example.yaml", "  DATABASE_URL:", "  database-url:"),
     1, "refers to a key of a Secret"),
    ("secret file outside the mounted Secret", replace("deploy/kubernetes/deployment.yaml",
                                                      "value: /etc/schema-registry/webhook-key/REGISTRY_WEBHOOK_SECRET_KEY",
                                                      "value: /etc/schema-registry/REGISTRY_WEBHOOK_SECRET_KEY"),
     1, "is under no volumeMount"),
    ("secret file the mounted Secret does not have", replace("deploy/kubernetes/secret.example.yaml",
                                                            "  REGISTRY_WEBHOOK_SECRET_KEY:", "  webhook-key:"),
     1, "has no key REGISTRY_WEBHOOK_SECRET_KEY"),
    ("Service selector that matches no pods", replace("deploy/kubernetes/service.yaml", "component: api\n  ports", "component: web\n  ports"),
     1, "selector matches the Deployment's pods"),
    ("termination grace shorter than the drain", replace("deploy/kubernetes/deployment.yaml",
                                                         "terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 12"),
     1, "terminationGracePeriodSeconds exceeds"),
    ("systemd stop timeout shorter than the drain", replace("deploy/systemd/schema-registry.service", "TimeoutStopSec=20", "TimeoutStopSec=5s"),
     1, "TimeoutStopSec exceeds"),
    ("registry started before migrate finished", replace("deploy/compose.yaml", "condition: service_completed_successfully",
                                                         "condition: service_started"),
     1, "starts after migrate completed successfully"),
    ("metrics exposed by the gateway", replace("deploy/nginx/registry.conf", "    location /panel/ {",
                                               "    location = /metrics {\n        proxy_pass http://schema_registry;\n    }\n\n"
                                               "    location /panel/ {"),
     1, "does not expose /metrics"),
    ("gateway body limit", replace("deploy/nginx/registry.conf", "client_max_body_size 1m;", "client_max_body_size 10m;"),
     1, "client_max_body_size is 1m"),
    ("gateway streams bodies with the client's Content-Length", replace("deploy/nginx/registry.conf",
                                                                        "proxy_request_buffering on;", "proxy_request_buffering off;"),
     1, "normalises Content-Length"),
]


def fake_binary(root: Path, body: str) -> Path:
    path = root / "schema-registry"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def run_checker(root: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECKER), "--root", str(root), "-q", *arguments],
                          capture_output=True, text=True, timeout=120)


def main() -> int:
    passed = failed = 0

    def record(ok: bool, name: str, output: str) -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok: {name}")
        else:
            failed += 1
            print(f"FAIL: {name}\n" + "".join(f"    {line}\n" for line in output.splitlines()[-15:]))

    for name, mutate, status, expected in CASES:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            shutil.copytree(ROOT / "deploy", root / "deploy")
            shutil.copy(SAMPLE_HELP, root / "help.txt")
            if mutate:
                mutate(root)
            result = run_checker(root, "--help-text", str(root / "help.txt"))
            output = result.stdout + result.stderr
            record(result.returncode == status and expected in output, name, output)

    # The binary mode runs `BINARY help` and reads its output.
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shutil.copytree(ROOT / "deploy", root / "deploy")
        binary = fake_binary(root, f'[ "$1" = help ] || exit 64\ncat "{SAMPLE_HELP}"\n')
        result = run_checker(root, str(binary))
        record(result.returncode == 0, "reads `BINARY help`", result.stdout + result.stderr)
        binary = fake_binary(root, 'echo "unknown command" >&2; exit 64\n')
        result = run_checker(root, str(binary))
        output = result.stdout + result.stderr
        record(result.returncode == 1 and "exits 0" in output and "lists commands and variables" in output,
               "a binary whose help fails is reported", output)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
