"""Floods of malformed and oversize requests, each followed by megabytes more, sent straight
to a relay process: it answers each, its memory stays bounded while they last, and it goes
back to within 20% of what it was before once they end.

Before the Guard (relay/http/guard.py), aiohttp kept every read of such a stream in a
reference cycle until it answered, and the relay's rare young-garbage passes let them pile
up: 12 MB a connection, 1.5 GB after a hundred connections, never given back."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request
from collections.abc import Callable

import pytest

from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(120)

TRAILING = 12 * 1024 * 1024
"""What a stranger sends after each bad request's head."""

CONNECTIONS = 30
"""Connections of each kind in a flood."""

PEAK = 200 * 1024 * 1024
"""How far above its figure before the floods the relay's RSS may go while they last."""


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


FLOODS: dict[str, tuple[bytes, bytes]] = {
    "bytes that are no request": (b"\x00\x01 no request\r\n\r\n", b"400"),
    "a head over 8 KB": (
        b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
        b"400",
    ),
    "a body over --max-body": (
        b"POST /v1/seek HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % TRAILING,
        b"413",
    ),
    "junk pipelined after a request": (
        b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n\x00junk\r\n",
        b"200",
    ),
    "a control character in a header": (
        b"POST /v1/seek HTTP/1.1\r\nHost: a\r\nX-A: \x01\r\nContent-Length: 20\r\n\r\n",
        b"400",
    ),
}
"""Each bad request's head, and the status of the first answer its connection gets."""


def _flood_once(port: int, head: bytes) -> bytes:
    """Sends head and TRAILING bytes more on one connection; returns the first answer's line."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        with contextlib.suppress(OSError):  # the relay resets the rest once it has its fill
            sock.sendall(head + b"x" * TRAILING)
        try:
            return sock.recv(4096).split(b"\r\n", 1)[0]
        except OSError:
            return b""


def _flood(relay: RelayProcess, sample: Callable[[], None]) -> dict[str, set[bytes]]:
    lines: dict[str, set[bytes]] = {}
    for name, (head, _) in FLOODS.items():
        for _ in range(CONNECTIONS):
            lines.setdefault(name, set()).add(_flood_once(relay.port, head))
            sample()
    return lines


@pytest.mark.parametrize("front", ["front", "no-front"])
def test_floods_of_bad_requests_keep_memory_bounded_and_give_it_back(front: str) -> None:
    flags = ("--no-front",) if front == "no-front" else ()
    with RelayProcess(*quick_flags(), "--no-access-log", *flags) as relay:
        assert relay.proc is not None
        pid = relay.proc.pid
        for _ in range(20):
            with urllib.request.urlopen(relay.url + "/v1/openapi.json", timeout=5) as answer:
                assert answer.status == 200
        time.sleep(1.5)
        before = _rss(pid)
        peak = before

        def sample() -> None:
            nonlocal peak
            peak = max(peak, _rss(pid))

        lines = _flood(relay, sample)
        # Every connection that read before the relay reset the rest read its answer.
        for name, (_, status) in FLOODS.items():
            answered = {line.split()[1] for line in lines[name] if line}
            assert answered == {status}, (name, lines[name])
        assert peak - before < PEAK, (before, peak)
        deadline = time.monotonic() + 10
        after = _rss(pid)
        while after > before * 1.2 and time.monotonic() < deadline:
            time.sleep(0.25)
            after = _rss(pid)
        assert after <= before * 1.2, (before, peak, after)
        with urllib.request.urlopen(relay.url + "/healthz", timeout=5) as answer:
            assert answer.status == 200
        print(f"\n{front}: RSS {before >> 20} MB before, {peak >> 20} MB peak, {after >> 20} after")
