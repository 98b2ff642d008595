"""Test hosts on one machine: network namespaces on a bridge of their own, made and removed here.

Each host is a network namespace joined by a veth pair to a bridge that lives in one more
namespace, the set's LAN, which has no other link: no traffic can leave the machine, and the
test's own namespace sees no interface or address come and go (a browser there would fail
its requests in flight with ERR_NETWORK_CHANGED). The test reaches a host through a unix
socket of a process in it (a path is not bound to a network namespace), and asks whether one
host reaches another by running a probe in it. The addresses are TEST-NET-3's
(203.0.113.0/24, RFC 5737: for documentation). One set exists at a time (a lock file), and
everything made is removed, and every process started is stopped by its PID, when the set
closes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import TracebackType
from typing import IO

__all__ = ["Hosts", "hosts_available"]

NETWORK = "203.0.113"
"""The hosts' /24 (TEST-NET-3)."""

PROBE = """
import socket, sys, urllib.request
address, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if path:
    with urllib.request.urlopen(f"http://{address}:{port}{path}", timeout=1) as answer:
        sys.exit(0 if answer.status == 200 else 1)
socket.create_connection((address, port), timeout=1).close()
"""
"""Run in a host: exits 0 when `address:port` accepts a connection (and answers GET `path`
with 200, when a path is given)."""

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
    ask whether it reaches() another, cut() its link (as a pulled cable: no reset, nothing
    answers), restore() it."""

    def __init__(self) -> None:
        tag = os.getpid() % 100_000
        self.bridge = f"mwbr{tag}"
        self.prefix = f"mw{tag}"
        self.lan = f"{self.prefix}-lan"
        """The namespace of the bridge and of the veth ends on it."""
        self.names: dict[str, tuple[str, str]] = {}
        """Host name -> (namespace, the veth end on the bridge)."""
        self.procs: list[subprocess.Popen[bytes]] = []
        self._lock: IO[str] | None = None

    def open(self) -> Hosts:
        """Makes the LAN and its bridge (waiting for another set to close first)."""
        self._lock = LOCK.open("w")
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        _ip("netns", "add", self.lan)
        _ip("-n", self.lan, "link", "add", self.bridge, "type", "bridge")
        _ip("-n", self.lan, "link", "set", self.bridge, "up")
        return self

    def add(self, name: str) -> str:
        """Makes host `name` on the bridge; returns its address."""
        index = len(self.names) + 10
        namespace, outer = f"{self.prefix}-{name}", f"{self.prefix}v{index}"
        inner = f"{self.prefix}i{index}"
        address = f"{NETWORK}.{index}"
        _ip("netns", "add", namespace)
        self.names[name] = (namespace, outer)
        _ip("-n", self.lan, "link", "add", outer, "type", "veth", "peer", "name", inner,
            "netns", namespace)  # fmt: skip
        _ip("-n", self.lan, "link", "set", outer, "master", self.bridge, "up")
        _ip("-n", namespace, "link", "set", "lo", "up")
        _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", inner)
        _ip("-n", namespace, "link", "set", inner, "up")
        return address

    def run(
        self, name: str, args: list[str], log: Path, **popen: object
    ) -> subprocess.Popen[bytes]:
        """Starts a process in host `name` (its PID is the process's own: ip execs it)."""
        with log.open("wb") as out:
            proc: subprocess.Popen[bytes] = subprocess.Popen(
                [*self.inside(name), *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                **popen,  # type: ignore[call-overload]
            )
        self.procs.append(proc)
        return proc

    def inside(self, name: str) -> list[str]:
        """Returns the command prefix that runs a program in host `name` (`ip netns exec`,
        which execs it: the PID is the program's own)."""
        return ["ip", "netns", "exec", self.names[name][0]]

    def reaches(self, name: str, address: str, port: int, path: str = "") -> bool:
        """Returns whether host `name` connects to `address:port` within a second (and gets
        200 for GET `path`, when a path is given)."""
        probe = [*self.inside(name), sys.executable, "-I", "-c", PROBE, address, str(port), path]
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
        return done.returncode == 0

    def cut(self, name: str) -> None:
        """Takes host `name`'s link down: what it sends and what is sent to it is lost."""
        _ip("-n", self.lan, "link", "set", self.names[name][1], "down")

    def restore(self, name: str) -> None:
        """Brings host `name`'s link up again."""
        _ip("-n", self.lan, "link", "set", self.names[name][1], "up")

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
        # Deleting a namespace deletes the links in it, and a veth end takes its peer along.
        for namespace in [namespace for namespace, _ in self.names.values()] + [self.lan]:
            with contextlib.suppress(subprocess.CalledProcessError):
                _ip("netns", "del", namespace)
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
