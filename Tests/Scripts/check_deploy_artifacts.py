#!/usr/bin/env python3
"""Checks the deployment artifacts under deploy/ against the binary that will run them.

No Docker engine or cluster runs here, so this checks what can be checked without one:

  1. every YAML file under deploy/ parses (all documents of a multi-document file);
  2. every environment variable the artifacts set that starts with REGISTRY_ or is
     DATABASE_URL is one the binary reads (compose `environment`/`env_file`, Kubernetes
     `env` and Secret/ConfigMap keys, systemd `Environment=` and env files, Dockerfile ENV);
  3. every command the artifacts run (compose `command`, Kubernetes `command`/`args`, systemd
     `Exec*=`, Dockerfile ENTRYPOINT/CMD) is a subcommand the binary lists;
  4. Kubernetes probes use /readyz (readiness) and /healthz (liveness) on the port the binary
     serves them on;
  5. the Dockerfile's runtime stage installs only libpq5, libmicrohttpd12 and libcurl4 (plus
     ca-certificates and tzdata), without recommended packages: libcurl4 because webhook
     deliveries dlopen() libcurl.so.4 (Sources/CCurl), which only that package ships (the
     GnuTLS flavour ships libcurl-gnutls.so.4, the -dev packages only headers and a symlink);

plus the consistency the files rely on (selectors match, Secrets referenced exist, a `NAME_FILE`
variable names a file of a mounted Secret, stop timeouts exceed REGISTRY_SHUTDOWN_GRACE_SECONDS,
probes are not public in the nginx gateway).

The binary's vocabulary comes from its `help` output: the `Commands:` block (lines whose first
word after two-space indentation is a command, `  admin create-account NAME` giving admin's
subcommands) and every REGISTRY_*/DATABASE_URL name anywhere in the text.

Usage:
  python3 Tests/Scripts/check_deploy_artifacts.py .build/debug/schema-registry   # runs `… help`
  python3 Tests/Scripts/check_deploy_artifacts.py --help-text FILE               # saved output

Prints one line per check and a final `N passed, M failed`; exits 1 if any check failed and 2
on a usage error. Needs python3 and PyYAML only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

try:
    import yaml
except ImportError:  # pragma: no cover - depends on the machine
    print("FAIL: PyYAML is not installed (apt-get install python3-yaml, or pip install pyyaml)")
    print("0 passed, 1 failed")
    sys.exit(1)

VARIABLE = re.compile(r"\b(REGISTRY_[A-Z0-9_]+|DATABASE_URL)\b")
CHECKED_NAME = re.compile(r"^(REGISTRY_[A-Z0-9_]+|DATABASE_URL)$")
BINARY_NAME = "schema-registry"
DEFAULT_GRACE_SECONDS = 10
RUNTIME_REQUIRED = {"libpq5", "libmicrohttpd12", "libcurl4"}
RUNTIME_ALLOWED = RUNTIME_REQUIRED | {"ca-certificates", "tzdata"}
# Packages that look like the libcurl the binary needs but do not ship the soname Sources/CCurl
# loads with dlopen() ("libcurl.so.4"): what to say when one is installed instead.
LIBCURL_LOOKALIKES = {
    "libcurl3-gnutls": "ships libcurl-gnutls.so.4, which the binary never loads: install libcurl4",
    "libcurl3-nss": "ships libcurl-nss.so.4, which the binary never loads: install libcurl4",
    "libcurl4-openssl-dev": "is headers for building, not the runtime library: install libcurl4",
    "libcurl4-gnutls-dev": "is headers for building, not the runtime library: install libcurl4",
    "curl": "is the curl program, not the library alone: install libcurl4",
}
MIGRATIONS_IN_IMAGE = "/usr/share/schema-registry/migrations"
POD_TEMPLATE_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"}
LONG_RUNNING_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Pod"}
SYSTEMD_EXEC_KEYS = ("ExecCondition", "ExecStartPre", "ExecStart", "ExecStartPost", "ExecReload",
                     "ExecStop", "ExecStopPost")
PROBE_PATHS = ("/healthz", "/readyz", "/metrics")


# --------------------------------------------------------------------------------------------
# Reporting


class Report:
    def __init__(self, quiet: bool = False) -> None:
        self.passed = 0
        self.failed = 0
        self.quiet = quiet

    def check(self, ok: bool, what: str, why: str = "") -> bool:
        if ok:
            self.passed += 1
            if not self.quiet:
                print(f"ok: {what}")
        else:
            self.failed += 1
            print(f"FAIL: {what}" + (f": {why}" if why else ""))
        return ok

    def ok(self, what: str) -> None:
        self.check(True, what)

    def fail(self, what: str, why: str = "") -> None:
        self.check(False, what, why)


# --------------------------------------------------------------------------------------------
# The binary's vocabulary


@dataclass
class Vocabulary:
    commands: dict[str, set[str]] = field(default_factory=dict)  # command -> its subcommands
    variables: set[str] = field(default_factory=set)
    grace_default: int = DEFAULT_GRACE_SECONDS


COMMAND_LINE = re.compile(r"^  ([a-z][a-z0-9-]*)(?: ([a-z][a-z0-9-]*))?(?=\s|$)")


def parse_help(text: str) -> Vocabulary:
    """Commands from the `Commands:` block (or, without one, from every two-space-indented
    lowercase line); variables from anywhere in the text."""
    vocabulary = Vocabulary(variables=set(VARIABLE.findall(text)))
    lines = text.splitlines()
    block: list[str] = []
    inside = False
    for line in lines:
        if line and not line[0].isspace():
            inside = line.strip().lower().rstrip(":") == "commands" or line.strip().lower().startswith("commands:")
            continue
        if inside:
            block.append(line)
    for line in block or lines:
        match = COMMAND_LINE.match(line)
        if not match:
            continue
        command, sub = match.group(1), match.group(2)
        vocabulary.commands.setdefault(command, set())
        if sub:
            vocabulary.commands[command].add(sub)
    for line in lines:
        if "REGISTRY_SHUTDOWN_GRACE_SECONDS" in line:
            match = re.search(r"default:?\s*(\d+)", line)
            if match:
                vocabulary.grace_default = int(match.group(1))
    return vocabulary


def read_vocabulary(args: argparse.Namespace, report: Report) -> Vocabulary:
    if args.help_text:
        text = Path(args.help_text).read_text(encoding="utf-8")
        source = args.help_text
    else:
        command = [args.binary] + (args.binary_args or ["help"])
        try:
            result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                    text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            report.fail(f"run `{' '.join(command)}`", str(error))
            return Vocabulary()
        text = result.stdout + "\n" + result.stderr
        source = " ".join(command)
        report.check(result.returncode == 0, f"`{source}` exits 0", f"exit status {result.returncode}")
    vocabulary = parse_help(text)
    report.check(bool(vocabulary.commands) and "DATABASE_URL" in vocabulary.variables,
                 f"help text ({source}) lists commands and variables",
                 f"found commands {sorted(vocabulary.commands)} and variables {sorted(vocabulary.variables)}; "
                 "expected a 'Commands:' block and DATABASE_URL")
    return vocabulary


# --------------------------------------------------------------------------------------------
# What the artifacts set and run


@dataclass
class Runtime:
    """One place the binary runs: its environment and the arguments after the binary name."""
    source: str
    environment: dict[str, str]
    arguments: list[str] | None  # None: the image's CMD applies
    variables_checked: bool = False  # the environment came from a file already checked


def split_command(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(item) for item in value]
    return shlex.split(str(value))


def is_binary(word: str) -> bool:
    return os.path.basename(word) == BINARY_NAME


def parse_env_file(path: Path) -> dict[str, str]:
    """KEY=value lines as systemd's EnvironmentFile= and compose's env_file read them."""
    values: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        if not sep:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def parse_duration(text) -> float | None:
    """Seconds in a systemd or compose duration: `20`, `20s`, `1m30s`, `1min 30s`, `500ms`."""
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return float(text)
    units = {"us": 1e-6, "ms": 1e-3, "s": 1, "sec": 1, "second": 1, "seconds": 1, "m": 60,
             "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600, "hour": 3600,
             "hours": 3600}
    text = str(text).strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    total = 0.0
    position = 0
    for match in re.finditer(r"\s*(\d+(?:\.\d+)?)\s*([a-z]+)", text):
        if match.start() != position or match.group(2) not in units:
            return None
        total += float(match.group(1)) * units[match.group(2)]
        position = match.end()
    return total if position == len(text) and position > 0 else None


def port_of(listen: str | None) -> int | None:
    if not listen:
        return None
    match = re.search(r":(\d+)$", listen.strip())
    return int(match.group(1)) if match else None


# --------------------------------------------------------------------------------------------
# Dockerfile


@dataclass
class Instruction:
    keyword: str
    arguments: str
    line: int


@dataclass
class Stage:
    image: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)


def parse_dockerfile(text: str) -> list[Stage]:
    lines = text.splitlines()
    instructions: list[Instruction] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        start = index + 1
        index += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [line]
        while parts[-1].rstrip().endswith("\\"):
            parts[-1] = parts[-1].rstrip()[:-1]
            # Comment and blank lines inside a continued instruction do not end it.
            while index < len(lines) and (not lines[index].strip() or lines[index].lstrip().startswith("#")):
                index += 1
            if index >= len(lines):
                break
            parts.append(lines[index])
            index += 1
        joined = " ".join(part.strip() for part in parts if part.strip())
        keyword, _, arguments = joined.partition(" ")
        instructions.append(Instruction(keyword.upper(), arguments.strip(), start))
    arg_defaults: dict[str, str] = {}
    stages: list[Stage] = []
    for instruction in instructions:
        if instruction.keyword == "ARG" and not stages:
            name, _, default = instruction.arguments.partition("=")
            arg_defaults[name.strip()] = default.strip().strip("\"'")
        elif instruction.keyword == "FROM":
            words = [word for word in instruction.arguments.split() if not word.startswith("--")]
            image = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?",
                           lambda m: arg_defaults.get(m.group(1), m.group(0)), words[0])
            name = words[2] if len(words) >= 3 and words[1].lower() == "as" else None
            stages.append(Stage(image, name))
        elif stages:
            stages[-1].instructions.append(instruction)
    return stages


def exec_form(arguments: str) -> list[str] | None:
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    return [str(item) for item in value] if isinstance(value, list) else None


def dockerfile_env(arguments: str) -> dict[str, str]:
    words = shlex.split(arguments)
    if words and "=" not in words[0]:  # legacy `ENV KEY value with spaces`
        return {words[0]: " ".join(words[1:])}
    return dict(word.split("=", 1) for word in words if "=" in word)


def apt_installs(run: str) -> list[tuple[list[str], list[str]]]:
    """(options, packages) of every apt-get/apt install in a RUN command."""
    installs = []
    for segment in re.split(r"&&|\|\||;|\|", run):
        try:
            words = shlex.split(segment)
        except ValueError:
            words = segment.split()
        for position, word in enumerate(words):
            if word in ("apt-get", "apt") and "install" in words[position + 1:]:
                rest = words[words.index("install", position + 1) + 1:]
                options: list[str] = []
                packages: list[str] = []
                takes_value = False
                for item in rest:
                    if takes_value:
                        takes_value = False
                    elif item.startswith("-"):
                        options.append(item)
                        takes_value = item in ("-o", "-t", "-c", "--option", "--target-release", "--config-file")
                    else:
                        packages.append(re.split(r"[=:]", item)[0])
                installs.append((options, packages))
                break
    return installs


def check_dockerfile(root: Path, report: Report, vocabulary: Vocabulary) -> tuple[dict[str, str], list[str]]:
    """Checks the Dockerfile; returns the runtime image's ENV and default arguments (CMD)."""
    path = root / "deploy" / "Dockerfile"
    name = "deploy/Dockerfile"
    if not path.is_file():
        report.fail(name, "missing")
        return {}, []
    stages = parse_dockerfile(path.read_text(encoding="utf-8"))
    if not report.check(len(stages) >= 2, f"{name} is multi-stage", f"{len(stages)} stage(s)"):
        return {}, []
    build, runtime = stages[0], stages[-1]
    report.check(build.image.split(":")[0].split("/")[-1] == "swift",
                 f"{name} builds on the official Swift image", f"first stage is FROM {build.image}")
    report.check(re.fullmatch(r"debian:[a-z]+-slim", runtime.image) is not None,
                 f"{name} runtime stage is a slim Debian (debian:<release>-slim)", f"FROM {runtime.image}")
    build_release = re.search(r"-(\w+)$", build.image.split(":")[-1])
    runtime_release = re.match(r"debian:([a-z]+)-slim", runtime.image)
    if build_release and runtime_release:
        report.check(build_release.group(1) == runtime_release.group(1),
                     f"{name} build and runtime stages are the same Debian release",
                     f"{build.image} vs {runtime.image}: the shared libraries' sonames differ")

    build_runs = " ".join(i.arguments for i in build.instructions if i.keyword == "RUN")
    report.check("--static-swift-stdlib" in build_runs and "swift build" in build_runs and "-c release" in build_runs,
                 f"{name} builds with `swift build -c release --static-swift-stdlib`")
    build_packages = {p for _, packages in apt_installs(build_runs) for p in packages}
    report.check({"libpq-dev", "libssl-dev", "libmicrohttpd-dev", "pkg-config"} <= build_packages,
                 f"{name} build stage installs libpq-dev, libssl-dev, libmicrohttpd-dev and pkg-config",
                 f"installs {sorted(build_packages)}")

    # (5) runtime packages
    installs = [install for i in runtime.instructions if i.keyword == "RUN" for install in apt_installs(i.arguments)]
    packages = {p for _, pkgs in installs for p in pkgs}
    report.check(RUNTIME_REQUIRED <= packages, f"{name} runtime stage installs {' and '.join(sorted(RUNTIME_REQUIRED))}",
                 f"missing {sorted(RUNTIME_REQUIRED - packages)}")
    extra = packages - RUNTIME_ALLOWED
    lookalikes = "".join(f"; {package} {LIBCURL_LOOKALIKES[package]}" for package in sorted(extra) if package in LIBCURL_LOOKALIKES)
    report.check(not extra, f"{name} runtime stage installs nothing beyond {sorted(RUNTIME_ALLOWED)}",
                 f"also installs {sorted(extra)}{lookalikes}")
    report.check(all("--no-install-recommends" in options for options, _ in installs) and bool(installs),
                 f"{name} runtime apt-get install uses --no-install-recommends",
                 "without it apt also installs recommended packages")
    copies = [[w for w in i.arguments.split() if not w.startswith("--")]
              for i in runtime.instructions if i.keyword in ("COPY", "ADD")]
    report.check(any(len(words) >= 2 and words[-1].rstrip("/") == MIGRATIONS_IN_IMAGE
                     and any("migrations" in source for source in words[:-1]) for words in copies),
                 f"{name} copies migrations/ to {MIGRATIONS_IN_IMAGE}")
    users = [i.arguments.split(":")[0] for i in runtime.instructions if i.keyword == "USER"]
    report.check(bool(users) and users[-1] not in ("root", "0"), f"{name} runtime runs as a non-root USER",
                 f"USER is {users[-1] if users else 'unset (root)'}")
    exposes = " ".join(i.arguments for i in runtime.instructions if i.keyword == "EXPOSE")
    report.check(bool(exposes), f"{name} EXPOSEs the listen port")

    environment: dict[str, str] = {}
    for stage in stages:
        for instruction in stage.instructions:
            if instruction.keyword == "ENV":
                values = dockerfile_env(instruction.arguments)
                if stage is runtime:
                    environment.update(values)
                check_variables(f"{name}:{instruction.line} ENV", values, vocabulary, report)

    entrypoints = [i for i in runtime.instructions if i.keyword == "ENTRYPOINT"]
    cmds = [i for i in runtime.instructions if i.keyword == "CMD"]
    entrypoint = exec_form(entrypoints[-1].arguments) if entrypoints else None
    cmd = exec_form(cmds[-1].arguments) if cmds else None
    report.check(entrypoint is not None and len(entrypoint) == 1 and is_binary(entrypoint[0]),
                 f"{name} ENTRYPOINT is the binary in exec form", f"ENTRYPOINT {entrypoints[-1].arguments if entrypoints else 'missing'}")
    if report.check(cmd is not None, f"{name} CMD in exec form", "missing or shell form"):
        check_command(f"{name} CMD", cmd, vocabulary, report)
    return environment, cmd or []


# --------------------------------------------------------------------------------------------
# Variables and commands


def check_variables(source: str, values, vocabulary: Vocabulary, report: Report) -> None:
    for name in values:
        if CHECKED_NAME.match(name):
            report.check(name in vocabulary.variables, f"{source} sets {name}: the binary reads it",
                         "not in the binary's help (unknown variable, typo, or not implemented yet)")


def check_command(source: str, arguments: list[str] | None, vocabulary: Vocabulary, report: Report) -> None:
    if not arguments:
        report.fail(f"{source} runs a subcommand", "no subcommand given")
        return
    command = arguments[0]
    if not report.check(command in vocabulary.commands, f"{source} runs `{command}`: a subcommand of the binary",
                        f"the binary's commands are {sorted(vocabulary.commands)}"):
        return
    subcommands = vocabulary.commands[command]
    if command == "admin" and len(arguments) > 1 and not arguments[1].startswith("-") and subcommands:
        report.check(arguments[1] in subcommands, f"{source} runs `admin {arguments[1]}`: listed by help",
                     f"admin's subcommands are {sorted(subcommands)}")


def check_runtimes(runtimes: list[Runtime], image_env: dict[str, str], image_cmd: list[str],
                   vocabulary: Vocabulary, report: Report) -> None:
    for runtime in runtimes:
        if not runtime.variables_checked:
            check_variables(runtime.source, runtime.environment, vocabulary, report)
        arguments = runtime.arguments if runtime.arguments is not None else image_cmd
        check_command(runtime.source, arguments, vocabulary, report)
        environment = {**image_env, **runtime.environment}
        report.check("DATABASE_URL" in environment, f"{runtime.source} provides DATABASE_URL",
                     "the binary needs it for serve, migrate and admin")


# --------------------------------------------------------------------------------------------
# YAML


def load_yaml_files(root: Path, report: Report) -> dict[Path, list]:
    documents: dict[Path, list] = {}
    files = sorted(p for p in (root / "deploy").rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    report.check(bool(files), "deploy/ has YAML files")
    for path in files:
        relative = path.relative_to(root)
        try:
            with path.open(encoding="utf-8") as handle:
                loaded = [doc for doc in yaml.safe_load_all(handle) if doc is not None]
        except yaml.YAMLError as error:
            report.fail(f"{relative} parses as YAML", str(error).replace("\n", " "))
            continue
        report.check(bool(loaded), f"{relative} parses as YAML", "no documents")
        documents[path] = loaded
    return documents


# --------------------------------------------------------------------------------------------
# compose


def our_compose_service(service: dict) -> bool:
    image = str(service.get("image", ""))
    build = service.get("build")
    dockerfile = build.get("dockerfile", "") if isinstance(build, dict) else ""
    return BINARY_NAME in image or str(dockerfile).endswith("deploy/Dockerfile")


def compose_environment(service: dict, base: Path) -> dict[str, str]:
    environment: dict[str, str] = {}
    env_files = service.get("env_file") or []
    for entry in env_files if isinstance(env_files, list) else [env_files]:
        file = entry.get("path") if isinstance(entry, dict) else entry
        if file and (base / file).is_file():
            environment.update(parse_env_file(base / file))
    value = service.get("environment") or {}
    if isinstance(value, dict):
        environment.update({str(k): "" if v is None else str(v) for k, v in value.items()})
    else:
        for item in value:
            key, _, item_value = str(item).partition("=")
            environment[key] = item_value
    return environment


def check_compose(path: Path, documents: list, root: Path, report: Report, runtimes: list[Runtime],
                  vocabulary: Vocabulary) -> None:
    name = str(path.relative_to(root))
    spec = documents[0] if documents else {}
    services = spec.get("services") if isinstance(spec, dict) else None
    if not report.check(isinstance(services, dict) and bool(services), f"{name} defines services"):
        return
    ours = {key: service for key, service in services.items() if isinstance(service, dict) and our_compose_service(service)}
    report.check(bool(ours), f"{name} runs the schema-registry image")
    postgres = [key for key, service in services.items() if "postgres" in str(service.get("image", ""))]
    for key in postgres:
        test = services[key].get("healthcheck", {}).get("test")
        report.check("pg_isready" in " ".join(split_command(test)), f"{name} {key} has a pg_isready healthcheck")
    migrate_services = [key for key, service in ours.items() if split_command(service.get("command"))[:1] == ["migrate"]]
    for key, service in ours.items():
        arguments = None
        entrypoint = split_command(service.get("entrypoint")) if service.get("entrypoint") is not None else None
        command = split_command(service.get("command")) if service.get("command") is not None else None
        if entrypoint is not None:
            if not report.check(bool(entrypoint) and is_binary(entrypoint[0]), f"{name} {key} entrypoint is the binary",
                                f"entrypoint {entrypoint}"):
                continue
            arguments = entrypoint[1:] + (command or [])
        elif command is not None:
            arguments = command
        environment = compose_environment(service, path.parent)
        runtimes.append(Runtime(f"{name} service {key}", environment, arguments))
        effective = arguments or []
        depends = service.get("depends_on") or {}
        if effective[:1] == ["migrate"]:
            for db in postgres:
                condition = depends.get(db, {}).get("condition") if isinstance(depends, dict) else None
                report.check(condition == "service_healthy", f"{name} {key} waits for {db} to be healthy",
                             f"depends_on condition is {condition}")
        elif effective[:1] in (["serve"], []):
            grace = int(environment.get("REGISTRY_SHUTDOWN_GRACE_SECONDS") or vocabulary.grace_default)
            stop = parse_duration(service.get("stop_grace_period", "10s"))
            report.check(stop is not None and stop > grace, f"{name} {key} stop_grace_period exceeds the shutdown grace",
                         f"stop_grace_period {service.get('stop_grace_period', '10s (default)')} vs REGISTRY_SHUTDOWN_GRACE_SECONDS {grace}")
            test = " ".join(split_command((service.get("healthcheck") or {}).get("test")))
            report.check("/readyz" in test or "/healthz" in test, f"{name} {key} healthcheck asks /readyz or /healthz",
                         f"healthcheck test is {test or 'missing'}")
            report.check(service.get("restart") in ("always", "unless-stopped", "on-failure")
                         or str(service.get("restart", "")).startswith("on-failure"),
                         f"{name} {key} has a restart policy", f"restart is {service.get('restart')}")
            for migrate in migrate_services:
                condition = depends.get(migrate, {}).get("condition") if isinstance(depends, dict) else None
                report.check(condition == "service_completed_successfully",
                             f"{name} {key} starts after {migrate} completed successfully",
                             f"depends_on condition is {condition}")
    for key, service in services.items():
        if key not in ours:
            check_variables(f"{name} service {key}", compose_environment(service, path.parent), vocabulary, report)


# --------------------------------------------------------------------------------------------
# Kubernetes


def check_secret_files(where: str, container: dict, spec: dict, secrets: dict[str, set[str]], report: Report) -> None:
    """A `NAME_FILE` variable must name a file the pod has: under a volumeMount of a Secret volume
    whose Secret (in deploy/kubernetes) has a key of that file's name."""
    volumes = {v.get("name"): v for v in spec.get("volumes") or []}
    for item in container.get("env") or []:
        name = str(item.get("name"))
        if not (CHECKED_NAME.match(name) and name.endswith("_FILE")) or "value" not in item:
            continue
        path = str(item.get("value"))
        found = None
        for mount in container.get("volumeMounts") or []:
            folder = str(mount.get("mountPath", "")).rstrip("/")
            if folder and path.startswith(folder + "/"):
                found = (mount, path[len(folder) + 1:])
        if not report.check(found is not None, f"{where} env {name} names a file under a volumeMount",
                            f"{path} is under no volumeMount"):
            continue
        mount, file = found
        secret = ((volumes.get(mount.get("name")) or {}).get("secret") or {}).get("secretName")
        report.check(secret is not None and file in secrets.get(secret, set()),
                     f"{where} env {name} names a key of a Secret in deploy/kubernetes mounted there",
                     f"volume {mount.get('name')} (secret {secret}) has no key {file}")


def pod_spec(document: dict) -> dict | None:
    kind = document.get("kind")
    spec = document.get("spec") or {}
    if kind in POD_TEMPLATE_KINDS:
        return (spec.get("template") or {}).get("spec")
    if kind == "CronJob":
        return (((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec")
    if kind == "Pod":
        return spec
    return None


def label_match(selector: dict, labels: dict) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def check_kubernetes(files: dict[Path, list], root: Path, report: Report, runtimes: list[Runtime],
                     image_env: dict[str, str], vocabulary: Vocabulary) -> None:
    objects = [(path, doc) for path, docs in files.items() for doc in docs
               if isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc]
    api_versions = {"Deployment": "apps/v1", "Service": "v1", "Job": "batch/v1",
                    "PodDisruptionBudget": "policy/v1", "Secret": "v1", "ConfigMap": "v1", "CronJob": "batch/v1"}
    secrets: dict[str, set[str]] = {}
    for path, doc in objects:
        name = f"{path.relative_to(root)} {doc['kind']}/{(doc.get('metadata') or {}).get('name')}"
        expected = api_versions.get(doc["kind"])
        if expected:
            report.check(doc["apiVersion"] == expected, f"{name} uses {expected}", f"apiVersion {doc['apiVersion']}")
        if doc["kind"] in ("Secret", "ConfigMap"):
            keys = set((doc.get("data") or {}).keys()) | set((doc.get("stringData") or {}).keys())
            if doc["kind"] == "Secret":
                secrets[(doc.get("metadata") or {}).get("name")] = keys
            check_variables(name, keys, vocabulary, report)
    kinds = {doc["kind"] for _, doc in objects}
    for wanted in ("Deployment", "Service", "Job", "PodDisruptionBudget", "Secret"):
        report.check(wanted in kinds, f"deploy/kubernetes has a {wanted}")

    templates: list[dict] = []
    for path, doc in objects:
        spec = pod_spec(doc)
        if spec is None:
            continue
        kind = doc["kind"]
        name = f"{path.relative_to(root)} {kind}/{(doc.get('metadata') or {}).get('name')}"
        if kind in POD_TEMPLATE_KINDS and kind != "Job":
            selector = ((doc.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
            labels = (((doc.get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels") or {}
            report.check(label_match(selector, labels), f"{name} selector matches its pod labels")
            templates.append(labels)
        containers = (spec.get("initContainers") or []) + (spec.get("containers") or [])
        ours = [c for c in containers if BINARY_NAME in str(c.get("image", ""))]
        report.check(bool(ours), f"{name} runs the schema-registry image")
        pod_security = spec.get("securityContext") or {}
        for container in ours:
            where = f"{name} container {container.get('name')}"
            environment = {}
            for item in container.get("env") or []:
                environment[item.get("name")] = str(item.get("value", ""))
                ref = (item.get("valueFrom") or {}).get("secretKeyRef")
                if ref:
                    report.check(ref.get("key") in secrets.get(ref.get("name"), set()),
                                 f"{where} env {item.get('name')} refers to a key of a Secret in deploy/kubernetes",
                                 f"secret {ref.get('name')} key {ref.get('key')} not defined")
            check_secret_files(where, container, spec, secrets, report)
            for source in container.get("envFrom") or []:
                ref = source.get("secretRef")
                if ref:
                    keys = secrets.get(ref.get("name"))
                    report.check(keys is not None, f"{where} envFrom secret {ref.get('name')} is defined")
                    environment.update({k: "" for k in keys or set()})
            command = container.get("command")
            args = container.get("args")
            arguments = None
            if command is not None:
                if not report.check(bool(command) and is_binary(str(command[0])), f"{where} command runs the binary",
                                    f"command {command}"):
                    continue
                arguments = [str(a) for a in command[1:]] + [str(a) for a in args or []]
            elif args is not None:
                arguments = [str(a) for a in args]
            runtimes.append(Runtime(where, environment, arguments))
            effective = {**image_env, **environment}

            security = container.get("securityContext") or {}
            report.check(security.get("runAsNonRoot", pod_security.get("runAsNonRoot")) is True,
                         f"{where} runs as non-root (runAsNonRoot)")
            report.check(security.get("readOnlyRootFilesystem") is True, f"{where} has a read-only root filesystem")
            report.check(security.get("allowPrivilegeEscalation") is False, f"{where} disallows privilege escalation")
            resources = container.get("resources") or {}
            report.check(all(k in (resources.get(part) or {}) for part in ("requests", "limits") for k in ("cpu", "memory")),
                         f"{where} sets cpu and memory requests and limits")

            if kind not in LONG_RUNNING_KINDS:
                continue
            # (4) probes
            ports = {p.get("name"): p.get("containerPort") for p in container.get("ports") or []}
            numbers = set(ports.values())
            admin = port_of(effective.get("REGISTRY_ADMIN_LISTEN")) or port_of(effective.get("REGISTRY_LISTEN")) or 8080
            for probe, wanted in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz"), ("startupProbe", None)):
                definition = container.get(probe)
                if definition is None:
                    if wanted:
                        report.fail(f"{where} has a {probe}", f"a long-running container needs {wanted}")
                    continue
                http = definition.get("httpGet")
                if not report.check(http is not None, f"{where} {probe} is an HTTP GET", "exec/tcpSocket probes skip the endpoint"):
                    continue
                path_ = http.get("path")
                allowed = (wanted,) if wanted else ("/healthz", "/readyz")
                report.check(path_ in allowed, f"{where} {probe} path is {' or '.join(allowed)}", f"path is {path_}")
                port = http.get("port")
                number = ports.get(port) if isinstance(port, str) else port
                report.check(number in numbers, f"{where} {probe} port {port} is a declared container port")
                report.check(number == admin, f"{where} {probe} port is where the binary serves probes ({admin})",
                             f"probe port {number}; REGISTRY_ADMIN_LISTEN/REGISTRY_LISTEN give {admin}")
            grace = int(effective.get("REGISTRY_SHUTDOWN_GRACE_SECONDS") or vocabulary.grace_default)
            pre_stop = ((container.get("lifecycle") or {}).get("preStop") or {})
            delay = 0
            sleep_command = (pre_stop.get("exec") or {}).get("command") or []
            if len(sleep_command) == 2 and os.path.basename(str(sleep_command[0])) == "sleep":
                delay = parse_duration(sleep_command[1]) or 0
            delay = (pre_stop.get("sleep") or {}).get("seconds", delay)
            termination = spec.get("terminationGracePeriodSeconds", 30)
            report.check(termination > grace + delay,
                         f"{where} terminationGracePeriodSeconds exceeds preStop + shutdown grace",
                         f"{termination} <= {delay} + {grace}")
        if kind == "Job":
            report.check(spec.get("restartPolicy") in ("Never", "OnFailure"), f"{name} has a Job restartPolicy")

    for path, doc in objects:
        name = f"{path.relative_to(root)} {doc['kind']}/{(doc.get('metadata') or {}).get('name')}"
        spec = doc.get("spec") or {}
        if doc["kind"] == "Service":
            report.check(any(label_match(spec.get("selector") or {}, labels) for labels in templates),
                         f"{name} selector matches the Deployment's pods")
        elif doc["kind"] == "PodDisruptionBudget":
            selector = (spec.get("selector") or {}).get("matchLabels") or {}
            report.check(any(label_match(selector, labels) for labels in templates),
                         f"{name} selector matches the Deployment's pods")
            report.check(("minAvailable" in spec) != ("maxUnavailable" in spec),
                         f"{name} sets one of minAvailable and maxUnavailable")


# --------------------------------------------------------------------------------------------
# systemd


def parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    sections: dict[str, list[tuple[str, str]]] = {}
    current = ""
    pending = ""
    for raw in text.splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections.setdefault(current, [])
            continue
        key, _, value = line.partition("=")
        sections.setdefault(current, []).append((key.strip(), value.strip()))
    return sections


def check_systemd(root: Path, report: Report, runtimes: list[Runtime], vocabulary: Vocabulary) -> None:
    folder = root / "deploy" / "systemd"
    units = sorted(folder.glob("*.service"))
    if not report.check(bool(units), "deploy/systemd has a service unit"):
        return
    env_files = {p.name: p for p in folder.iterdir() if ".env" in p.name}
    for path, values in ((p, parse_env_file(p)) for p in sorted(env_files.values())):
        check_variables(str(path.relative_to(root)), values, vocabulary, report)
    for unit in units:
        name = str(unit.relative_to(root))
        sections = parse_unit(unit.read_text(encoding="utf-8"))
        service = sections.get("Service", [])
        settings: dict[str, list[str]] = {}
        for key, value in service:
            settings.setdefault(key, []).append(value)

        def last(key: str) -> str | None:
            return settings[key][-1] if settings.get(key) else None

        environment: dict[str, str] = {}
        for file in settings.get("EnvironmentFile", []):
            file_name = os.path.basename(file.lstrip("-"))
            example = env_files.get(file_name + ".example") or env_files.get(file_name)
            report.check(example is not None, f"{name} EnvironmentFile {file} has an example in deploy/systemd")
            if example is not None:
                environment.update(parse_env_file(example))
        for value in settings.get("Environment", []):
            assignments = dict(word.split("=", 1) for word in shlex.split(value) if "=" in word)
            check_variables(f"{name} Environment=", assignments, vocabulary, report)
            environment.update(assignments)
        report.check(last("Type") in (None, "simple", "exec"), f"{name} Type=simple", f"Type={last('Type')}")
        report.check(last("Restart") == "on-failure", f"{name} Restart=on-failure", f"Restart={last('Restart')}")
        report.check(last("KillSignal") in (None, "SIGTERM", "TERM", "15"), f"{name} stops with SIGTERM")
        for hardening, wanted in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("PrivateTmp", "yes")):
            report.check(last(hardening) in (wanted, "true", "on", "1") if wanted == "yes" else last(hardening) == wanted,
                         f"{name} {hardening}={wanted}", f"{hardening}={last(hardening)}")
        report.check(last("DynamicUser") in ("yes", "true") or last("User") not in (None, "root", "0"),
                     f"{name} runs as DynamicUser or a dedicated user")
        grace = int(environment.get("REGISTRY_SHUTDOWN_GRACE_SECONDS") or vocabulary.grace_default)
        stop = parse_duration(last("TimeoutStopSec") or "90s")
        report.check(stop is not None and stop > grace, f"{name} TimeoutStopSec exceeds REGISTRY_SHUTDOWN_GRACE_SECONDS",
                     f"TimeoutStopSec={last('TimeoutStopSec')} vs grace {grace}")
        started = False
        for key in SYSTEMD_EXEC_KEYS:
            for value in settings.get(key, []):
                words = shlex.split(value.lstrip("@-:+!"))
                if not words or not is_binary(words[0]):
                    continue
                runtimes.append(Runtime(f"{name} {key}", environment, words[1:], variables_checked=True))
                started |= key == "ExecStart" and words[1:2] == ["serve"]
        report.check(started, f"{name} ExecStart runs `schema-registry serve`")
        report.check(any("migrate" in v for v in settings.get("ExecStartPre", [])), f"{name} ExecStartPre runs migrate")


# --------------------------------------------------------------------------------------------
# nginx


@dataclass
class Directive:
    name: str
    args: list[str]
    block: list["Directive"] | None = None


def parse_nginx(text: str) -> list[Directive]:
    tokens: list[str] = []
    for match in re.finditer(r"#[^\n]*|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|[{};]|[^\s{};'\"#]+", text):
        token = match.group(0)
        if token.startswith("#"):
            continue
        if token[0] in "'\"":
            token = token[1:-1]
        tokens.append(token)
    position = 0

    def block() -> list[Directive]:
        nonlocal position
        directives: list[Directive] = []
        words: list[str] = []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == ";":
                directives.append(Directive(words[0], words[1:]))
                words = []
            elif token == "{":
                directives.append(Directive(words[0], words[1:], block()))
                words = []
            elif token == "}":
                return directives
            else:
                words.append(token)
        return directives

    return block()


def choose_location(locations: list[Directive], uri: str) -> Directive | None:
    """nginx's rule: an exact match wins; else the longest prefix, unless a regex matches
    first (in order) and that prefix is not `^~`."""
    prefixes = []
    for location in locations:
        modifier, pattern = (location.args[0], location.args[1]) if len(location.args) == 2 else ("", location.args[0])
        if modifier == "=" and uri == pattern:
            return location
        if modifier in ("", "^~") and uri.startswith(pattern):
            prefixes.append((len(pattern), modifier, location))
    longest = max(prefixes, key=lambda item: item[0]) if prefixes else None
    if longest and longest[1] == "^~":
        return longest[2]
    for location in locations:
        if len(location.args) == 2 and location.args[0] in ("~", "~*"):
            flags = re.IGNORECASE if location.args[0] == "~*" else 0
            if re.search(location.args[1], uri, flags):
                return location
    return longest[2] if longest else None


def walk(directives: list[Directive], name: str):
    for directive in directives:
        if directive.name == name:
            yield directive
        if directive.block:
            yield from walk(directive.block, name)


def check_nginx(root: Path, report: Report) -> None:
    files = sorted((root / "deploy" / "nginx").glob("*.conf"))
    if not report.check(bool(files), "deploy/nginx has a gateway config"):
        return
    for path in files:
        name = str(path.relative_to(root))
        tree = parse_nginx(path.read_text(encoding="utf-8"))
        upstreams = list(walk(tree, "upstream"))
        report.check(any(any(d.name == "keepalive" for d in u.block or []) for u in upstreams),
                     f"{name} upstream keeps connections alive (keepalive)")
        body_sizes = [d.args[0].lower() for d in walk(tree, "client_max_body_size")]
        report.check(bool(body_sizes) and all(size in ("1m", "1048576") for size in body_sizes),
                     f"{name} client_max_body_size is 1m", f"found {body_sizes}")
        report.check(any(d.args and d.args[0].lower() == "x-request-id" for d in walk(tree, "proxy_set_header")),
                     f"{name} passes X-Request-Id upstream")
        # The registry's libmicrohttpd answers an unparsable Content-Length twice; nginx sends a
        # length of its own only when it reads the body first.
        buffering = [d.args[0].lower() for d in walk(tree, "proxy_request_buffering") if d.args]
        report.check(bool(buffering) and all(value == "on" for value in buffering),
                     f"{name} normalises Content-Length (proxy_request_buffering on)", f"found {buffering}")
        public = [s for s in walk(tree, "server") if any(True for _ in walk(s.block or [], "proxy_pass"))]
        report.check(bool(public), f"{name} has a server that proxies to the registry")
        for server in public:
            listen = " ".join(d.args[0] for d in server.block or [] if d.name == "listen")
            locations = [d for d in server.block or [] if d.name == "location"]
            for prefix in ("/api/", "/panel/"):
                chosen = choose_location(locations, prefix + "live_activity_schemas")
                report.check(chosen is not None and any(True for _ in walk(chosen.block or [], "proxy_pass")),
                             f"{name} server {listen} forwards {prefix}")
            for probe in PROBE_PATHS:
                for uri in (probe, probe + "/"):
                    chosen = choose_location(locations, uri)
                    exposed = chosen is None or any(True for _ in walk(chosen.block or [], "proxy_pass"))
                    report.check(not exposed, f"{name} server {listen} does not expose {uri}",
                                 "routed to the upstream" if chosen else "no location catches it (404 from root, "
                                 "but make it explicit)")


# --------------------------------------------------------------------------------------------


EXPECTED_FILES = [
    "deploy/Dockerfile", "deploy/Dockerfile.dockerignore", "deploy/compose.yaml",
    "deploy/kubernetes/deployment.yaml", "deploy/kubernetes/service.yaml", "deploy/kubernetes/migrate-job.yaml",
    "deploy/kubernetes/pdb.yaml", "deploy/kubernetes/secret.example.yaml",
    "deploy/systemd/schema-registry.service", "deploy/systemd/schema-registry.env.example",
    "deploy/nginx/registry.conf", "deploy/README.md",
]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?", help="path to schema-registry; its `help` output is read")
    parser.add_argument("binary_args", nargs="*", help="arguments instead of `help`")
    parser.add_argument("--help-text", metavar="FILE", help="read a saved `schema-registry help` output instead")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[2]),
                        help="repository root (default: two folders above this script)")
    args = parser.parse_args(argv)
    if bool(args.binary) == bool(args.help_text):
        parser.error("give either the binary's path or --help-text FILE")
    root = Path(args.root).resolve()

    report = Report(quiet=args.quiet)
    vocabulary = read_vocabulary(args, report)
    for relative in EXPECTED_FILES:
        report.check((root / relative).is_file(), f"{relative} exists")

    yaml_files = load_yaml_files(root, report)
    image_env, image_cmd = check_dockerfile(root, report, vocabulary)
    runtimes: list[Runtime] = []
    for path, documents in yaml_files.items():
        if path.parent == root / "deploy" and path.stem in ("compose", "docker-compose"):
            check_compose(path, documents, root, report, runtimes, vocabulary)
    kubernetes = {p: d for p, d in yaml_files.items() if (root / "deploy" / "kubernetes") in p.parents}
    if kubernetes:
        check_kubernetes(kubernetes, root, report, runtimes, image_env, vocabulary)
    check_systemd(root, report, runtimes, vocabulary)
    check_runtimes(runtimes, image_env, image_cmd, vocabulary, report)
    check_nginx(root, report)

    # Environment files anywhere else under deploy/ (e.g. an .env for compose).
    for path in sorted((root / "deploy").rglob("*")):
        if path.is_file() and path.parent.name != "systemd" and (path.name == ".env" or path.name.endswith((".env", ".env.example"))):
            check_variables(str(path.relative_to(root)), parse_env_file(path), vocabulary, report)

    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
