"""A TCP proxy on loopback that resets connections and delays, drops or stalls answers at random."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
from dataclasses import dataclass, field

__all__ = ["FaultProxy", "Faults"]

_REQUEST_STARTS = (b"GET ", b"POST ")


@dataclass
class Faults:
    """What the proxy did: how many of each fault it injected."""

    connections: int = 0
    requests: int = 0
    resets: int = 0
    """Connections reset (RST) on a request, before any of it reached the relay."""
    drops: int = 0
    """Answers thrown away: the relay handled the request, the client never heard back."""
    delays: int = 0
    """Answers held back a random while before being passed on."""
    stalls: int = 0
    """Answers never passed on and connections left hanging: the client must time out."""

    @property
    def total(self) -> int:
        """Returns how many faults were injected."""
        return self.resets + self.drops + self.delays + self.stalls


@dataclass
class _Connection:
    fate: str = ""
    """What happens to the answer of the request in flight: '', 'drop' or 'stall'."""
    seat: bytes | None = None
    """The Authorization header of the request in flight not yet answered, if it has one."""
    sockets: list[asyncio.StreamWriter] = field(default_factory=list)


class FaultProxy:
    """Forwards 127.0.0.1:port to a relay, injecting faults at the given rates per request.

    Seeks are faulted like everything else: the SDK's seek carries its own token, so a
    retried seek answers the same seat.
    `drop_first`, if given, drops the answer of the first request whose first line contains it.
    `only`, if given, keeps the random faults to the requests whose first line contains it.
    """

    def __init__(
        self,
        upstream_port: int,
        *,
        seed: int = 0,
        reset: float = 0.0,
        drop: float = 0.0,
        delay: float = 0.0,
        stall: float = 0.0,
        max_delay: float = 0.05,
        drop_first: bytes | None = None,
        only: bytes | None = None,
    ) -> None:
        self.upstream_port = upstream_port
        self.rng = random.Random(seed)
        self.rates = (reset, drop, stall)
        self.delay, self.max_delay = delay, max_delay
        self.drop_first = drop_first
        self.only = only
        self.faults = Faults()
        self.lines: list[bytes] = []
        """The first line of every request, in order ('POST /v1/seek HTTP/1.1'...)."""
        self.in_flight: dict[bytes, int] = {}
        """Requests of each seat (by its Authorization header) sent and not yet answered."""
        self.most_in_flight: dict[bytes, int] = {}
        """The most requests each seat had in flight at once."""
        self._server: asyncio.Server | None = None
        self._open: dict[asyncio.Task[None], _Connection] = {}

    @property
    def url(self) -> str:
        """Returns the proxy's base URL."""
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def __aenter__(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for conn in list(self._open.values()):
            _reset(conn)  # each connection's handler then ends by itself
        if self._open:
            await asyncio.wait(list(self._open))
        await self._server.wait_closed()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.faults.connections += 1
        conn = self._open[task] = _Connection(sockets=[client_w])
        try:
            relay_r, relay_w = await asyncio.open_connection("127.0.0.1", self.upstream_port)
            conn.sockets.append(relay_w)
            await asyncio.gather(
                self._requests(client_r, relay_w, conn),
                self._answers(relay_r, client_w, conn),
                return_exceptions=True,  # one side failing just ends the connection
            )
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._count_out(conn)
            for writer in conn.sockets:
                writer.transport.abort()
            del self._open[task]

    def _count_in(self, conn: _Connection, request: bytes) -> None:
        head = request.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
        self.lines.append(head[0])
        for line in head[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"authorization":
                seat = conn.seat = value.strip()
                count = self.in_flight[seat] = self.in_flight.get(seat, 0) + 1
                self.most_in_flight[seat] = max(count, self.most_in_flight.get(seat, 0))

    def _count_out(self, conn: _Connection) -> None:
        """Counts the request in flight on conn as answered (or given up with its connection)."""
        if conn.seat is not None:
            self.in_flight[conn.seat] -= 1
            conn.seat = None

    async def _requests(
        self, client_r: asyncio.StreamReader, relay_w: asyncio.StreamWriter, conn: _Connection
    ) -> None:
        while chunk := await client_r.read(65536):
            if chunk.startswith(_REQUEST_STARTS):
                self.faults.requests += 1
                self._count_in(conn, chunk)
                conn.fate = self._fate(chunk)
                if conn.fate == "reset":
                    self.faults.resets += 1
                    _reset(conn)
                    return
            relay_w.write(chunk)
            await relay_w.drain()
        _reset(conn)

    async def _answers(
        self, relay_r: asyncio.StreamReader, client_w: asyncio.StreamWriter, conn: _Connection
    ) -> None:
        while chunk := await relay_r.read(65536):
            self._count_out(conn)
            if conn.fate == "drop":
                self.faults.drops += 1
                _reset(conn)
                return
            if conn.fate == "stall":
                self.faults.stalls += 1
                return  # pass nothing on; the client times out and closes its side
            if self.delay and self.rng.random() < self.delay:
                self.faults.delays += 1
                await asyncio.sleep(self.rng.uniform(0, self.max_delay))
            client_w.write(chunk)
            await client_w.drain()
        _reset(conn)

    def _fate(self, request: bytes) -> str:
        line = request.split(b"\r\n", 1)[0]
        if self.drop_first is not None and self.drop_first in line:
            self.drop_first = None
            return "drop"
        if self.only is not None and self.only not in line:
            return ""
        reset, drop, stall = self.rates
        roll = self.rng.random()
        if roll < reset:
            return "reset"
        if roll < reset + drop:
            return "drop"
        if roll < reset + drop + stall:
            return "stall"
        return ""


def _reset(conn: _Connection) -> None:
    """Closes both sides of a connection at once, with a TCP reset."""
    for writer in conn.sockets:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
