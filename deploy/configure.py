"""Prints a shipped deploy file made for N relay workers and, optionally, a path prefix.

    python3 deploy/configure.py systemd --workers 4 > /etc/systemd/system/movewire-relay.service
    python3 deploy/configure.py nginx --workers 4 > /etc/nginx/sites-available/movewire
    python3 deploy/configure.py apache --workers 4 --prefix /games > movewire.conf

The shipped files run 2 workers at the root; this writes one upstream line (nginx) or
BalancerMember (Apache) per worker, the unit's `--workers N`, and the prefix everywhere
the relay's paths appear. /metrics goes to the supervisor's socket, which serves the
box's metrics; with one worker there is no supervisor, and it goes to the worker. Nothing
but the standard library is needed.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["FILES", "configure", "main"]

HERE = Path(__file__).resolve().parent

FILES = {
    "nginx": HERE / "nginx" / "movewire.conf",
    "apache": HERE / "apache" / "movewire.conf",
    "systemd": HERE / "systemd" / "movewire-relay.service",
}
"""The shipped file of each kind."""

PREFIX = re.compile(r"(/[A-Za-z0-9._~-]+)+")
"""A path prefix such as /games (the relay's --prefix accepts the same)."""

WORKER_LINE = re.compile(r"^.*relay-\d+\.sock.*\n", re.M)
"""A line naming one worker's socket: an nginx `server` or an Apache `BalancerMember`."""

PREFIXED = {
    "nginx": [
        ("location /v1/ {", "location {p}/v1/ {{"),
        ("location /v1/admin/ {", "location {p}/v1/admin/ {{"),
        ("location = /healthz {", "location = {p}/healthz {{"),
        ("location = /metrics {", "location = {p}/metrics {{"),
    ],
    "apache": [
        ('"/v1/" "balancer://movewire/v1/"', '"{p}/v1/" "balancer://movewire{p}/v1/"'),
        (
            '"/healthz" "balancer://movewire/healthz"',
            '"{p}/healthz" "balancer://movewire{p}/healthz"',
        ),
        ('"/metrics" "unix:', '"{p}/metrics" "unix:'),
        ("|http://relay-metrics/metrics", "|http://relay-metrics{p}/metrics"),
        ('<Location "/metrics">', '<Location "{p}/metrics">'),
        ('<Location "/v1/admin/">', '<Location "{p}/v1/admin/">'),
    ],
    "systemd": [("--trusted-proxy unix", "--prefix {p} --trusted-proxy unix")],
}
"""Where each file names the relay's paths, and how they read under a prefix."""

SINGLE = {
    "nginx": [
        (
            "proxy_pass http://unix:/run/movewire/relay-metrics.sock;",
            "proxy_pass http://movewire_relay;",
        )
    ],
    "apache": [
        (
            '"unix:/run/movewire/relay-metrics.sock|http://relay-metrics{p}/metrics"',
            '"balancer://movewire{p}/metrics"',
        )
    ],
    "systemd": [],
}
"""How /metrics reaches the relay when it runs one worker, the whole box ('{p}': the prefix)."""


def configure(kind: str, workers: int = 2, prefix: str = "") -> str:
    """Returns the shipped file of `kind` made for `workers` processes under `prefix`."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, not {workers!r}")
    if prefix and PREFIX.fullmatch(prefix) is None:
        raise ValueError(f"prefix must be a path like /games (no trailing slash), not {prefix!r}")
    text = FILES[kind].read_text()
    if kind == "systemd":
        text = _replace(text, "--workers 2", f"--workers {workers}")
    else:
        lines = WORKER_LINE.findall(text)
        if not lines:
            raise ValueError(f"{FILES[kind]} names no worker socket")
        first = text.index(lines[0])
        end = text.index(lines[-1]) + len(lines[-1])
        template = lines[0]
        block = "".join(template.replace("relay-1", f"relay-{n}") for n in range(1, workers + 1))
        text = text[:first] + block + text[end:]
    if prefix:
        for old, new in PREFIXED[kind]:
            text = _replace(text, old, new.format(p=prefix))
    if workers == 1:
        for old, new in SINGLE[kind]:
            text = _replace(text, old.format(p=prefix), new.format(p=prefix))
    return text


def _replace(text: str, old: str, new: str) -> str:
    if old not in text:
        raise ValueError(f"{old!r} is not in the shipped file")
    return text.replace(old, new)


def main(argv: Sequence[str] | None = None) -> None:
    """Prints the file asked for on the command line."""
    parser = argparse.ArgumentParser(
        prog="python3 deploy/configure.py",
        description="Prints a shipped deploy file for N relay workers and a path prefix.",
    )
    parser.add_argument("kind", choices=sorted(FILES), help="which file")
    parser.add_argument("--workers", type=int, default=2, help="relay processes (default 2)")
    parser.add_argument("--prefix", default="", help="path the relay lives under, e.g. /games")
    args = parser.parse_args(argv)
    try:
        sys.stdout.write(configure(args.kind, args.workers, args.prefix.rstrip("/")))
    except ValueError as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    main()
