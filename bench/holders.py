"""Lean idle players: thousands of held polls per process, each from a loopback address of its
own, opened in paced batches (bench.idle runs a few such processes)."""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

__all__ = ["Poller", "Tally", "open_pollers", "poll_request", "source_address"]

IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)
"""Linux's: the port is chosen at connect time, by the whole 4-tuple, not at bind."""

PERIOD = 0.05
"""Seconds between the starts of two batches of connects."""


def source_address(number: int) -> str:
    """Returns the loopback address idle player `number` connects from: one address each,
    from 127.1.0.1 on, spread over 127.0.0.0/8 (16 million before they wrap)."""
    number, low = divmod(number, 254)
    number, middle = divmod(number, 256)
    return f"127.{1 + number % 254}.{middle}.{low + 1}"


def poll_request(path: str, headers: str = "") -> bytes:
    """Returns the GET an idle player sends, again each time it is answered."""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode()


@dataclass
class Tally:
    """What one process's idle players saw: connections opened and lost, answers by status."""

    opened: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    lost: int = 0
    answers: Counter[int] = field(default_factory=Counter)


class Poller(asyncio.Protocol):
    """One idle player's connection: sends its poll, and polls again whenever one is answered
    (a held poll's time is up), so that a poll is held for as long as the connection lasts."""

    def __init__(self, request: bytes, tally: Tally) -> None:
        self.request = request
        self.tally = tally
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Sends the poll."""
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        """Counts each whole answer and sends the poll again."""
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            head = self.buffer[:end].lower().split(b"\r\n")
            length = 0
            for line in head[1:]:
                if line.startswith(b"content-length:"):
                    length = int(line[15:])
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            self.tally.answers[int(head[0].split()[1])] += 1
            assert self.transport is not None
            self.transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        """Counts the connection lost (the server closed it, or the run ended)."""
        self.tally.lost += 1


async def _connect(host: str, port: int, source: str, poller: Poller) -> None:
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((source, 0))
        sock.setblocking(False)
        await asyncio.wait_for(loop.sock_connect(sock, (host, port)), 30)
        await loop.create_connection(lambda: poller, sock=sock)
    except BaseException:
        sock.close()
        raise


async def open_pollers(
    host: str, port: int, requests: list[bytes], first: int, per_second: float, tally: Tally
) -> list[Poller]:
    """Opens one connection per request, player `first` onwards by number (its source
    address), per_second at most, in a batch every PERIOD, each batch awaited whole before
    the next; returns the pollers opened (failures counted in tally by error)."""
    loop = asyncio.get_running_loop()
    step = max(1, round(per_second * PERIOD))
    pollers: list[Poller] = []
    for start in range(0, len(requests), step):
        began = loop.time()
        batch = [Poller(request, tally) for request in requests[start : start + step]]
        results = await asyncio.gather(
            *(
                _connect(host, port, source_address(first + start + i), poller)
                for i, poller in enumerate(batch)
            ),
            return_exceptions=True,
        )
        for poller, result in zip(batch, results, strict=True):
            if isinstance(result, BaseException):
                tally.failed[type(result).__name__ + (f" {result}" if str(result) else "")] += 1
            else:
                tally.opened += 1
                pollers.append(poller)
        await asyncio.sleep(max(0.0, PERIOD - (loop.time() - began)))
    return pollers
