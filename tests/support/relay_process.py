"""Starts a real relay (`python -m relay`) as a process of its own on a free port, and stops it
by PID. A relay run from the sources is forked from a warm process (relay_zygote.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from types import TracebackType

from bench.installed import relay_command
from tests.support.ports import free_port
from tests.support.relay_zygote import Forked, spawn

__all__ = ["RelayProcess", "free_port", "quick_flags"]

ROOT = Path(__file__).resolve().parents[2]


def quick_flags(hold: int = 5, grace: int = 30) -> tuple[str, ...]:
    """Returns the relay options of most tests: a short hold, a grace long enough that a slow
    test never looks like an abandoned seat, and rate limits no test reaches."""
    return (
        "--hold", str(hold), "--grace", str(grace),
        "--seeks-per-minute", "100000", "--requests-per-second", "100000",
    )  # fmt: skip


class RelayProcess:
    """A relay subprocess on 127.0.0.1; use as a context manager."""

    def __init__(
        self,
        *args: str,
        port: int | None = None,
        env: dict[str, str] | None = None,
        installed: Path | None = None,
        module: str = "relay",
    ):
        """args: the relay's options; installed: a tree from bench.installed.installed_tree()
        to run the relay as the wheel installs it (compiled), instead of the sources; module:
        the module run in place of `relay` (one that runs relay.__main__.main)."""
        self.port = port or free_port()
        command, base_env = relay_command(installed)
        command[-1] = module
        self.args = [*command, "--host", "127.0.0.1", "--port", str(self.port), *args]
        self.env = {**base_env, **(env or {})}
        self.proc: subprocess.Popen[bytes] | Forked | None = None
        self.log_path = Path(os.environ.get("RELAY_TEST_LOGS", "/tmp")) / f"relay-{self.port}.log"

    @property
    def url(self) -> str:
        """Returns the relay's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> RelayProcess:
        """Starts the process and waits until /healthz answers."""
        self.proc = spawn(self.args, self.env, ROOT, self.log_path)
        if self.proc is None:
            with self.log_path.open("wb") as log:
                self.proc = subprocess.Popen(
                    self.args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
                )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"relay exited with {self.proc.returncode}: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.01)
        self.stop()
        raise RuntimeError(f"relay did not answer /healthz within {timeout} s: {self.log()}")

    def log(self) -> str:
        """Returns what the relay printed so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 40.0) -> int | None:
        """Stops the process by PID (SIGTERM, then SIGKILL) and returns its exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode

    def __enter__(self) -> RelayProcess:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
