"""Starts test relays by forking one warm process instead of a new interpreter each time.

`python -m relay` spends most of its start (about 0.45 s of CPU here) importing aiohttp, the
Redis client and the relay. The suite starts some 300 relays, so each test worker keeps one
zygote: a process that has imported the relay once, then forks a child per relay. The child
takes the command line, environment, working folder and log it was given, names itself as
`python -m relay ...` would in `ps`, and runs `relay/__main__.py` as `python -m relay` does:
a real relay process, by PID, that tests signal and kill as any other. Only its imports are
shared. A relay whose environment changes how Python itself starts (a PYTHON* variable) is
started as a new interpreter instead (RelayProcess decides).

The zygote reads one JSON request a line on stdin and answers one on stdout:
`{"spawn": {"argv", "env", "cwd", "log"}}` answers `{"pid": N}`; `{"status": N}` answers
`{"code": C}`, C null while the child runs, else its exit code as subprocess gives it (minus
the signal that ended it). It reaps every child that ended at each request, and exits when
its stdin closes."""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["Forked", "spawn"]

ROOT = Path(__file__).resolve().parents[2]

WARM = ("uvloop", "relay.__main__", "relay.store.memory.store", "relay.store.redis.store")
"""The modules the zygote imports before it forks: what a relay's start imports."""


class Forked:
    """A relay forked by the zygote: the part of subprocess.Popen the tests use."""

    def __init__(self, zygote: _Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """Returns the exit code once the process ended, else None."""
        if self.returncode is None:
            self.returncode = self._zygote.status(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Waits until the process ends and returns its exit code (TimeoutExpired after
        `timeout` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(["relay", str(self.pid)], timeout or 0)
            time.sleep(0.01)
        return code

    def send_signal(self, sig: int) -> None:
        """Sends sig to the process unless it has ended."""
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        """Sends SIGTERM."""
        self.send_signal(15)

    def kill(self) -> None:
        """Sends SIGKILL."""
        self.send_signal(9)


class _Zygote:
    """The test process's side of one zygote, started at its first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "tests.support.relay_zygote"],
                    cwd=ROOT,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                )
                atexit.register(self._proc.stdin.close)  # type: ignore[union-attr]
            stdin, stdout = self._proc.stdin, self._proc.stdout
            assert stdin is not None and stdout is not None
            stdin.write(json.dumps(request).encode() + b"\n")
            stdin.flush()
            line = stdout.readline()
        if not line:
            raise RuntimeError("the relay zygote exited")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the relay zygote could not fork: {answer['error']}")
        return answer

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> Forked:
        request = {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        return Forked(self, int(self._ask({"spawn": request})["pid"]))

    def status(self, pid: int) -> int | None:
        code = self._ask({"status": pid})["code"]
        return None if code is None else int(code)


_ZYGOTE = _Zygote()


def spawn(argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> Forked:
    """Starts `python -m relay` with argv (its options, after `-m relay`), env, cwd and its
    output to log, forked from this test process's zygote."""
    return _ZYGOTE.spawn(argv, env, cwd, log)


# -- the zygote's own side -------------------------------------------------------------------


def _warm() -> None:
    """Imports what a relay's start imports, so that each child finds it loaded."""
    for module in WARM:
        importlib.import_module(module)
    from relay.cli import parse_args

    parse_args(["--port", "1"])  # loads the installed game packages


def _become(request: dict[str, Any], channel: tuple[BinaryIO, BinaryIO]) -> None:
    """Turns this forked child into `python -m relay ARGV`, and never returns."""
    code: int = 1
    try:
        for end in channel:
            end.close()
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # a new process inherits none of them
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import runpy

        import setproctitle

        setproctitle.setproctitle(" ".join([sys.executable, "-m", "relay", *request["argv"]]))
        sys.argv = ["-m", *request["argv"]]
        del sys.modules["relay.__main__"]  # run afresh as __main__, its imports kept
        runpy.run_module("relay", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def _serve() -> None:
    """Answers requests on stdin until it closes."""
    channel = (os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb"))
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # nothing a child inherits writes into the channel
    _warm()
    ended: dict[int, int] = {}
    requests, answers = channel
    for line in requests:
        while True:  # reap every child that ended
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            ended[pid] = os.waitstatus_to_exitcode(status)
        request = json.loads(line)
        answer: dict[str, Any]
        if "status" in request:
            answer = {"code": ended.get(int(request["status"]))}
        else:
            sys.stderr.flush()
            try:
                pid = os.fork()
            except OSError as error:
                answer = {"error": str(error)}
            else:
                if pid == 0:
                    _become(request["spawn"], channel)
                answer = {"pid": pid}
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    _serve()
