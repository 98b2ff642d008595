"""The servers compared: the relay (memory or Redis, 1 or more processes), Nchan (its own memory
or Redis), bare aiohttp."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.installed import relay_command

__all__ = ["Target", "ceiling", "nchan", "relay"]

ROOT = Path(__file__).resolve().parents[1]

NCHAN_MODULE = "/usr/lib/nginx/modules/ngx_nchan_module.so"

NCHAN_CONF = """
load_module {module};
worker_processes {workers};
worker_rlimit_nofile {connections};
pid {dir}/nginx.pid;
error_log {dir}/error.log error;
daemon off;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    keepalive_requests 1000000;
    keepalive_timeout 300s;
{upstream}
    server {{
        listen 127.0.0.1:{port};
        location ~ ^/pub/(\\w+)$ {{
            nchan_publisher;
            nchan_channel_id $1;
            nchan_message_buffer_length 16;
            nchan_message_timeout 10m;
{redis_pass}
        }}
        location ~ ^/sub/(\\w+)$ {{
            nchan_subscriber longpoll;
            nchan_channel_id $1;
            nchan_subscriber_first_message oldest;
{redis_pass}
        }}
    }}
}}
"""


@dataclass
class Target:
    """A running server under test: where it listens and the PIDs whose CPU and memory count."""

    name: str
    kind: str
    host: str
    ports: list[int]
    pids: list[int] = field(default_factory=list)
    redis_pids: list[int] = field(default_factory=list)
    """The redis-server processes it uses (their CPU counts too, reported apart)."""


def free_port() -> int:
    """Returns a free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError as exc:
            if getattr(exc, "code", None):  # an HTTP error answer: the server is up
                return
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


@contextlib.contextmanager
def _processes(
    commands: list[list[str]], urls: list[str], env: dict[str, str] | None = None
) -> Iterator[list[int]]:
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for command in commands:
            procs.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for proc, url in zip(procs, urls, strict=True):
            _wait_http(url, proc)
        yield [proc.pid for proc in procs]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


@contextlib.contextmanager
def relay(
    name: str,
    workers: int = 1,
    store: str = "memory",
    redis_pids: list[int] | None = None,
    flags: tuple[str, ...] = (),
    tree: Path | None = None,
    module: str = "relay",
) -> Iterator[Target]:
    """Runs `workers` relay processes on one store (with extra flags); yields them as a target.
    With tree (bench.installed), the relay runs as the wheel installs it, else from sources.
    module: the module run in place of `relay` (one of the checkout's that runs the relay
    installed, as bench.refereed does)."""
    ports = [free_port() for _ in range(workers)]
    command, env = relay_command(tree)
    if module != "relay":
        command[-1] = module
        if tree is not None:  # the relay from the tree, the module from the checkout
            env["PYTHONPATH"] = f"{tree}{os.pathsep}{ROOT}"
    commands = [
        [
            *command,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--store",
            store,
            "--no-access-log",
            "--log-level",
            "warning",
            "--hold",
            "25",
            "--grace",
            "300",
            "--seeks-per-minute",
            "100000000",
            "--requests-per-second",
            "100000000",
            "--polls-per-seat",
            "8",
            "--max-waiting",
            "1000000",
            *flags,
        ]
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}/healthz" for port in ports]
    with _processes(commands, urls, env) as pids:
        yield Target(name, "relay", "127.0.0.1", ports, pids, redis_pids or [])


@contextlib.contextmanager
def ceiling(processes: int = 1) -> Iterator[Target]:
    """Runs the bare aiohttp server answering a fixed response, as `processes` processes each
    on a port of its own (the load spread over them, as over the relay's)."""
    ports = [free_port() for _ in range(processes)]
    commands = [[sys.executable, "-m", "bench.ceiling", str(port)] for port in ports]
    name = "aiohttp, fixed answer (ceiling)"
    if processes > 1:
        name = f"aiohttp, fixed answer, {processes} processes (the machine's cost of processes)"
    with _processes(commands, [f"http://127.0.0.1:{port}/" for port in ports]) as pids:
        yield Target(name, "ceiling", "127.0.0.1", ports, pids)


def nchan_available() -> str:
    """Returns '' when nginx and the Nchan module are installed, else what is missing."""
    if shutil.which("nginx") is None:
        return "nginx is not installed (apt-get install nginx-light libnginx-mod-nchan)"
    if not os.path.exists(NCHAN_MODULE):
        return "Nchan is not installed (apt-get install libnginx-mod-nchan)"
    return ""


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(child) for child in text)
    return found


@contextlib.contextmanager
def nchan(
    workers: int = 1,
    redis_port: int | None = None,
    redis_pids: list[int] | None = None,
    connections: int = 30_000,
) -> Iterator[Target]:
    """Runs nginx with Nchan (`workers` worker processes, `connections` connections and open
    files each, as the system allows) on a free port; with redis_port, its channels live in
    that redis-server (`nchan_redis_pass`, over TCP on 127.0.0.1)."""
    port = free_port()
    upstream = redis_pass = ""
    if redis_port is not None:
        upstream = f"    upstream redis {{ nchan_redis_server redis://127.0.0.1:{redis_port}; }}"
        redis_pass = "            nchan_redis_pass redis;"
    with tempfile.TemporaryDirectory(prefix="bench-nchan-") as tmp:
        conf = Path(tmp) / "nginx.conf"
        conf.write_text(
            NCHAN_CONF.format(
                module=NCHAN_MODULE,
                dir=tmp,
                port=port,
                workers=workers,
                connections=connections,
                upstream=upstream,
                redis_pass=redis_pass,
            )
        )
        command = ["nginx", "-c", str(conf), "-p", tmp]
        with _processes([command], [f"http://127.0.0.1:{port}/none"]) as pids:
            time.sleep(0.2)
            children = _children(pids[0])
            store = " on Redis" if redis_port is not None else ""
            name = f"Nchan{store} (nginx, {workers} worker{'s' if workers > 1 else ''})"
            yield Target(name, "nchan", "127.0.0.1", [port], pids + children, redis_pids or [])


def store_notices(target: Target) -> int:
    """Returns the event notices the target's relay processes heard from their store, summed
    (relay_store_notices_total from each one's /metrics)."""
    total = 0
    for port in target.ports:
        with urllib.request.urlopen(f"http://{target.host}:{port}/metrics", timeout=10) as answer:
            for line in answer.read().decode().splitlines():
                if line.startswith("relay_store_notices_total "):
                    total += int(float(line.split()[1]))
    return total
