"""`python -m relay --workers N`: runs N relay processes on one box, all on one Redis.

Worker k (1..N) listens on --port + k - 1, or on the --unix path with '{n}' replaced by k
(PATH.k when the path has no '{n}'). The supervisor restarts a worker that dies, turns
SIGTERM or SIGINT into one SIGTERM to every worker, and exits once they all have. SIGHUP
restarts the workers one at a time (a rolling restart: each stops as SIGTERM stops it, and
the next goes only once its replacement answers), so the box keeps answering throughout.
No worker is special: behind nginx, any of them answers any request.

The supervisor also serves the box's /metrics, every worker's summed (relay/box/), on the
--unix path with '{n}' replaced by 'metrics' (PATH.metrics), or on --port + N of the loopback
address unless --metrics-host names another."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import FrameType

from relay.box.serve import Address, BoxServer, ask
from relay.config import STORE_ENV, Config

__all__ = [
    "box_address",
    "python_command",
    "reachable",
    "supervise",
    "without_store",
    "worker_address",
]

log = logging.getLogger("relay.workers")

RESTART_PAUSE = 1.0
"""Seconds before a dead worker is started again (doubling while it keeps dying, up to 30)."""


def worker_address(config: Config, unix: str | None, number: int) -> list[str]:
    """Returns the listening arguments of worker `number` (1..N)."""
    if unix is None:
        return ["--port", str(config.port + number - 1)]
    if "{n}" in unix:
        return ["--unix", unix.replace("{n}", str(number))]
    return ["--unix", f"{unix}.{number}"]


def box_address(config: Config, unix: str | None) -> Address:
    """Returns where the supervisor serves the box's /metrics: the --unix path with '{n}'
    replaced by 'metrics' (PATH.metrics when it has no '{n}'), else --port + N on
    --metrics-host, by default the loopback address (::1 when --host is '::')."""
    if unix is None:
        host = config.metrics_host or ("::1" if ":" in config.host else "127.0.0.1")
        return (host, config.port + config.workers)
    if "{n}" in unix:
        return unix.replace("{n}", "metrics")
    return f"{unix}.metrics"


def reachable(config: Config, unix: str | None, number: int) -> Address:
    """Returns where the supervisor reaches worker `number` (1..N): its socket, or its port
    on --host (on the loopback address when --host is every address)."""
    if unix is not None:
        return worker_address(config, unix, number)[1]
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(config.host, config.host)
    return (host, config.port + number - 1)


def without_store(argv: Sequence[str]) -> list[str]:
    """Returns the command-line arguments less --store and --store-file (and their values)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--store", "--store-file"):
            skip = True
        elif not arg.startswith(("--store=", "--store-file=")):
            kept.append(arg)
    return kept


class _Worker:
    """One relay process and when to start it again."""

    def __init__(
        self,
        command: list[str],
        number: int,
        env: dict[str, str],
        exited: Callable[[int], None] | None = None,
    ) -> None:
        self.command = command
        self.number = number
        self.env = env
        self.exited = exited
        """Told the worker's number when it has exited, before it starts again."""
        self.proc: subprocess.Popen[bytes] | None = None
        self.pause = RESTART_PAUSE
        self.restart_at = 0.0
        self.started_at = 0.0

    def start(self) -> None:
        # A group of its own: a terminal's Ctrl-C reaches the supervisor only, which then
        # stops each worker once (a second signal would cut a worker's clean shutdown short).
        self.proc = subprocess.Popen(self.command, process_group=0, env=self.env)
        self.started_at = time.monotonic()
        log.info("worker %d started (pid %d)", self.number, self.proc.pid)

    def replace(self, grace: float, ready: Callable[[], bool], timeout: float = 30.0) -> None:
        """Stops the worker as SIGTERM does (its held polls answered, its requests finished,
        at most grace seconds), starts it again, and returns once the new process answers
        (ready) or after timeout."""
        proc = self.proc
        if proc is not None:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(grace)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            log.info("worker %d (pid %d) stopped for the restart", self.number, proc.pid)
            self.proc = None
            if self.exited is not None:
                self.exited(self.number)
        self.pause = RESTART_PAUSE
        self.start()
        deadline = time.monotonic() + timeout
        while not ready():
            if self.proc is None or self.proc.poll() is not None or time.monotonic() > deadline:
                log.warning("worker %d did not answer after its restart", self.number)
                return
            time.sleep(0.05)

    def check(self, now: float) -> None:
        """Notices a worker that died and starts it again after a pause."""
        if self.proc is not None and self.proc.poll() is not None:
            code = self.proc.returncode
            # A worker that ran a while before dying gets the short pause again.
            if now - self.started_at > 60:
                self.pause = RESTART_PAUSE
            log.warning(
                "worker %d (pid %d) exited with %s; restarting in %.0f s",
                self.number,
                self.proc.pid,
                code,
                self.pause,
            )
            self.proc = None
            if self.exited is not None:
                self.exited(self.number)
            self.restart_at = now + self.pause
            self.pause = min(30.0, self.pause * 2)
        if self.proc is None and now >= self.restart_at:
            self.start()


def _answers(address: Address, metrics: str) -> bool:
    """Returns whether the worker at address answers (its /metrics, as the box asks it)."""
    return ask(address, metrics) is not None


def python_command() -> list[str]:
    """Returns the interpreter command of a worker, which must import the relay package this
    process runs: the working folder's (a checkout's sources) only when that is where this
    one came from; otherwise -P keeps the working folder off the path, so a relay installed
    from a wheel (hot path compiled) runs installed even from inside a checkout."""
    package = Path(__file__).resolve().parent.parent
    if sys.flags.safe_path or package != Path.cwd().resolve():
        return [sys.executable, "-P"]
    return [sys.executable]


def supervise(argv: Sequence[str], config: Config, unix: str | None) -> int:
    """Runs config.workers relay processes until SIGTERM or SIGINT, restarting them one at a
    time at each SIGHUP; returns the exit code (0 when every worker stopped cleanly)."""
    logging.basicConfig(
        level=config.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        stream=sys.stderr,
    )
    base = [*python_command(), "-m", "relay", *without_store(argv), "--workers", "1"]
    # The store URL (a password, maybe) reaches the workers in their environment, which
    # only their user can read, never on their command lines, which anyone can.
    env = {**os.environ, STORE_ENV: config.store_url}
    numbers = range(1, config.workers + 1)
    box = BoxServer(
        box_address(config, unix),
        {number: reachable(config, unix, number) for number in numbers},
        f"{config.prefix}/metrics",
    )
    exited: Callable[[int], None] | None = box.exited
    try:
        box.start()
        log.info("serving the box's metrics at %s", box.listen)
    except OSError as exc:
        log.error("cannot serve the box's metrics at %s: %s", box.listen, exc)
        exited = None
    workers = [
        _Worker([*base, *worker_address(config, unix, number)], number, env, exited)
        for number in numbers
    ]
    stopping: list[int] = []
    reloading: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.append(signum)

    def reload(signum: int, frame: FrameType | None) -> None:
        reloading.append(signum)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    signal.signal(signal.SIGHUP, reload)
    for worker in workers:
        worker.start()
    metrics = f"{config.prefix}/metrics"
    while not stopping:
        time.sleep(0.2)
        if reloading:
            reloading.clear()
            # One at a time, each back before the next goes: the others answer meanwhile.
            log.info("restarting %d workers one at a time", len(workers))
            for worker in workers:
                if stopping:
                    break
                worker.replace(
                    config.hold + 10,
                    partial(_answers, reachable(config, unix, worker.number), metrics),
                )
            log.info("every worker restarted")
        for worker in workers:
            if not stopping:
                worker.check(time.monotonic())
    log.info("stopping %d workers", len(workers))
    for worker in workers:
        if worker.proc is not None and worker.proc.poll() is None:
            worker.proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + config.hold + 10
    code = 0
    for worker in workers:
        if worker.proc is None:
            continue
        try:
            code |= worker.proc.wait(max(0.1, deadline - time.monotonic())) != 0
        except subprocess.TimeoutExpired:
            worker.proc.kill()
            worker.proc.wait()
            code = 1
    box.stop()
    return code
