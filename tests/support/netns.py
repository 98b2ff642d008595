"""Test hosts on one machine: network namespaces on a bridge of their own, made and removed here.

Each host is a network namespace joined by a veth pair to a bridge in the test's namespace;
the addresses are TEST-NET-3's (203.0.113.0/24, RFC 5737: for documentation), and before
any host is made the set checks that the kernel routes them to its bridge, so no traffic
can leave the machine. One set exists at a time (a lock file), and everything
made is removed, and every process started is stopped by its PID, when the set closes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
from pathlib import Path
from types import TracebackType
from typing import IO

__all__ = ["Hosts", "hosts_available"]

NETWORK = "203.0.113"
"""The hosts' /24 (TEST-NET-3); the bridge, in the test's namespace, is .1."""

LOCK = Path("/tmp/movewire-netns.lock")


def hosts_available() -> str:
    """Returns '' when namespaces can be made here (root, iproute2), else why not."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2's ip is missing (apt-get install iproute2)"
    return ""


def _ip(*args: str) -> str:
    done = subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)
    return done.stdout


class Hosts:
    """A few test hosts (network namespaces) on a bridge: add() one, run() a process in it,
    cut() its link (as a pulled cable: no reset, nothing answers), restore() it."""

    def __init__(self) -> None:
        tag = os.getpid() % 100_000
        self.bridge = f"mwbr{tag}"
        self.gateway = f"{NETWORK}.1"
        self.prefix = f"mw{tag}"
        self.names: dict[str, tuple[str, str]] = {}
        """Host name -> (namespace, the veth end on the bridge)."""
        self.procs: list[subprocess.Popen[bytes]] = []
        self._lock: IO[str] | None = None

    def open(self) -> Hosts:
        """Makes the bridge (waiting for another set to close first)."""
        self._lock = LOCK.open("w")
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        route = _ip("route", "get", f"{NETWORK}.10")
        if f"dev {self.bridge} " not in route + " ":
            raise RuntimeError(f"{NETWORK}.0/24 is not routed to the test bridge here: {route}")
        return self

    def add(self, name: str) -> str:
        """Makes host `name` on the bridge; returns its address."""
        index = len(self.names) + 10
        namespace, outer = f"{self.prefix}-{name}", f"{self.prefix}v{index}"
        inner = f"{self.prefix}i{index}"
        address = f"{NETWORK}.{index}"
        _ip("netns", "add", namespace)
        self.names[name] = (namespace, outer)
        _ip("link", "add", outer, "type", "veth", "peer", "name", inner)
        _ip("link", "set", inner, "netns", namespace)
        _ip("link", "set", outer, "master", self.bridge, "up")
        _ip("-n", namespace, "link", "set", "lo", "up")
        _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", inner)
        _ip("-n", namespace, "link", "set", inner, "up")
        return address

    def run(
        self, name: str, args: list[str], log: Path, **popen: object
    ) -> subprocess.Popen[bytes]:
        """Starts a process in host `name` (its PID is the process's own: ip execs it)."""
        namespace = self.names[name][0]
        with log.open("wb") as out:
            proc: subprocess.Popen[bytes] = subprocess.Popen(
                ["ip", "netns", "exec", namespace, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                **popen,  # type: ignore[call-overload]
            )
        self.procs.append(proc)
        return proc

    def cut(self, name: str) -> None:
        """Takes host `name`'s link down: what it sends and what is sent to it is lost."""
        _ip("link", "set", self.names[name][1], "down")

    def restore(self, name: str) -> None:
        """Brings host `name`'s link up again."""
        _ip("link", "set", self.names[name][1], "up")

    def close(self) -> None:
        """Stops every process started here, by PID, and removes the hosts and the bridge."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        for namespace, outer in self.names.values():
            with contextlib.suppress(subprocess.CalledProcessError):
                _ip("link", "del", outer)
            with contextlib.suppress(subprocess.CalledProcessError):
                _ip("netns", "del", namespace)
        with contextlib.suppress(subprocess.CalledProcessError):
            _ip("link", "del", self.bridge)
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Hosts:
        try:
            return self.open()
        except BaseException:
            self.close()
            raise

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
