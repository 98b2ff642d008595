"""Free loopback ports for the servers tests start.

Each test worker (pytest-xdist's gw0, gw1, ...) takes ports from a block of its own, below
the system's ephemeral ports: no other worker hands out the same port, and no outgoing
connection takes it between the check and the server's bind (as one may take a port that
the system chose for `bind(0)`). A worker goes round its block, so a port it handed out is
not handed out again until 2,000 more have been."""

from __future__ import annotations

import itertools
import os
import random
import socket

__all__ = ["BUS", "free_port", "free_ports"]

BASE = 10_000
BLOCK = 2_000
WORKERS = 5
"""Blocks, 10000 to 19999; a Redis Cluster node's bus port (+BUS) falls in 20000 to 29999."""

BUS = 10_000
"""How far above a Redis Cluster node's port its cluster bus listens."""

_turn = itertools.count(random.randrange(BLOCK))


def _worker() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name[2:]) % WORKERS if name.startswith("gw") and name[2:].isdigit() else 0


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_ports(count: int = 1, bus: bool = False) -> int:
    """Returns the first of `count` consecutive TCP ports on 127.0.0.1 that nothing listens
    on (with bus, nor on each port + BUS), from this worker's block."""
    start = BASE + BLOCK * _worker()
    for _ in range(BLOCK):
        first = start + next(_turn) % (BLOCK - count + 1)
        ports = range(first, first + count)
        if all(_bindable(port) and (not bus or _bindable(port + BUS)) for port in ports):
            return first
    raise RuntimeError(f"no {count} free ports in {start}..{start + BLOCK - 1}")


def free_port() -> int:
    """Returns a TCP port on 127.0.0.1 that nothing listens on, from this worker's block."""
    return free_ports(1)
