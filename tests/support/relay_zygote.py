"""Starts test relays by forking one warm process instead of a new interpreter each time.

`python -m relay` spends most of its start (about half a second of CPU here) importing aiohttp, the
Redis client and the relay. The suite starts hundreds of relays, so each test worker keeps a
zygote per way of starting Python (the checkout's sources; the compiled wheel's tree, with
-P and its PYTHONPATH): a process that has imported the relay once, then forks a child per
relay. The child takes the command line, environment, working folder and log it was given,
names itself in `ps` as its command would, and runs its module as `python -m` does: a real
relay process, by PID, that tests signal and kill as any other. Only its imports are shared.

`run` does the same for a command that the test waits for and reads, such as `python -m
relay admin ...`: its output and its errors go to files of their own.

The zygote reads one JSON request a line on stdin and answers one on stdout:
`{"spawn": {"module", "argv", "env", "cwd", "log", "err"}}` answers `{"pid": N}` (`err`,
where the errors go, may be null: then into `log` too); `{"status": N}`
answers `{"code": C}`, C null while the child runs, else its exit code as subprocess gives
it (minus the signal that ended it). It reaps every child that ended at each request, and
exits when its stdin closes."""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["Forked", "run", "spawn"]

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
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """Sends SIGKILL."""
        self.send_signal(signal.SIGKILL)


class _Zygote:
    """The test process's side of one zygote, started at its first use with `start` (the
    interpreter and its options) and the PYTHON* variables `python`."""

    def __init__(self, start: tuple[str, ...], python: dict[str, str]) -> None:
        self._start = start
        self._python = python
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
                self._proc = subprocess.Popen(
                    [*self._start, str(Path(__file__))],
                    cwd=ROOT,
                    env={**env, **self._python},
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

    def spawn(
        self,
        module: str,
        argv: list[str],
        env: dict[str, str],
        cwd: Path,
        log: Path,
        err: Path | None = None,
    ) -> Forked:
        request = {
            "module": module, "argv": argv, "env": env, "cwd": str(cwd), "log": str(log),
            "err": None if err is None else str(err),
        }  # fmt: skip
        return Forked(self, int(self._ask({"spawn": request})["pid"]))

    def status(self, pid: int) -> int | None:
        code = self._ask({"status": pid})["code"]
        return None if code is None else int(code)


_ZYGOTES: dict[tuple[tuple[str, ...], frozenset[tuple[str, str]]], _Zygote] = {}
_ZYGOTES_LOCK = threading.Lock()


def spawn(
    command: list[str], env: dict[str, str], cwd: Path, log: Path, err: Path | None = None
) -> Forked | None:
    """Starts command, `PYTHON [OPTIONS] -m MODULE ARGS...`, with env, cwd and its output to
    log (its errors to err, if given, else to log too), forked from the zygote of this
    interpreter, its options and env's PYTHON* variables (started at its first use).
    Returns None for a command of another shape, which must be started as a process of its
    own."""
    if "-m" not in command[1:-1] or command[0] != sys.executable:
        return None
    at = command.index("-m")
    start = tuple(command[:at])
    if any(option not in ("-P", "-u", "-B") for option in start[1:]):
        return None
    python = {k: v for k, v in env.items() if k.startswith("PYTHON")}
    key = (start, frozenset(python.items()))
    with _ZYGOTES_LOCK:
        zygote = _ZYGOTES.setdefault(key, _Zygote(start, python))
    return zygote.spawn(command[at + 1], command[at + 2 :], env, cwd, log, err)


def run(
    command: list[str], *, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float
) -> subprocess.CompletedProcess[str]:
    """Runs command to its end as `subprocess.run(command, capture_output=True, text=True,
    check=False)` would, forked from a zygote when it is `PYTHON -m MODULE ...` with this
    process's PYTHON* variables (a zygote for other ones would cost more than it saves);
    raises TimeoutExpired after `timeout` seconds, the process killed."""
    env = dict(os.environ) if env is None else env
    ours = {k: v for k, v in os.environ.items() if k.startswith("PYTHON")}
    if {k: v for k, v in env.items() if k.startswith("PYTHON")} != ours:
        return subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    with tempfile.TemporaryDirectory(prefix="movewire-run-") as folder:
        out, err = Path(folder, "out"), Path(folder, "err")
        forked = spawn(command, env, cwd, out, err)
        if forked is None:
            return subprocess.run(
                command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                check=False,
            )  # fmt: skip
        try:
            code = forked.wait(timeout)
        except subprocess.TimeoutExpired:
            forked.kill()
            forked.wait(10)
            raise subprocess.TimeoutExpired(command, timeout) from None
        read = functools.partial(Path.read_text, encoding="utf-8", errors="replace")
        return subprocess.CompletedProcess(command, code, read(out), read(err))


# -- the zygote's own side -------------------------------------------------------------------


def _warm() -> None:
    """Imports what a relay's start imports, so that each child finds it loaded. Only a start
    made quicker: a module this interpreter cannot import is left to the child, which then
    fails as `python -m` would."""
    for module in WARM:
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    with contextlib.suppress(Exception):
        from relay.cli import parse_args

        parse_args(["--port", "1"])  # loads the installed game packages


def _become(request: dict[str, Any], channel: tuple[BinaryIO, BinaryIO]) -> None:
    """Turns this forked child into `python -m MODULE ARGV`, and never returns."""
    code: int = 1
    try:
        for end in channel:
            end.close()
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        log = os.open(request["log"], flags, 0o644)
        err = log if request.get("err") is None else os.open(request["err"], flags, 0o644)
        os.dup2(log, 1)
        os.dup2(err, 2)
        for fd in {log, err}:
            os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # a new process inherits none of them
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import runpy

        import setproctitle

        module = request["module"]
        setproctitle.setproctitle(" ".join([sys.executable, "-m", module, *request["argv"]]))
        sys.argv = ["-m", *request["argv"]]
        main = module if module.endswith(".__main__") else f"{module}.__main__"
        for name in (module, main):  # run afresh as __main__, the modules it imports kept
            if name in sys.modules and not hasattr(sys.modules[name], "__path__"):
                del sys.modules[name]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
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
    if not sys.flags.safe_path:  # as `python -m` puts it: the working folder, not this one's
        sys.path[0] = os.getcwd()
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
