"""Bounds what a connection may cost: aiohttp's connections read no further than a request
can need, and a connection closed with input unread is closed the way nginx closes one.

A client that sends what is no request (or a head or body over the limits) gets its answer
and loses the connection; the rest of what it sends is never kept. aiohttp parses each
read of such a stream again and keeps it in its queue of requests until it has answered,
so `Guard` stands between aiohttp and the socket and stops reading once the client is
further ahead of aiohttp's answers than any request may be. Closing a socket with unread
input resets it, and a proxy that is still writing a request body then sees a broken pipe
(nginx counts it a failed upstream), so `linger` closes as nginx's own lingering close
does: it sends the answer, then the end of the stream, then reads and drops what the client
still sends, for at most LINGER_SECONDS and LINGER_BYTES, before it closes."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from typing import Any, cast

from relay.http.framing import Framer

__all__ = ["LINGER_BYTES", "LINGER_SECONDS", "Guard", "Reclaim", "linger"]

LINGER_SECONDS = 5.0
"""How long a connection closed with input unread goes on reading it (nginx: 5 s idle)."""

LINGER_BYTES = 1 << 20
"""Bytes a closing connection reads and drops before it resets the rest (1 MiB)."""


class _Lingering(asyncio.Protocol):
    """A connection being closed: its answer and end of stream sent, the rest read and dropped."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.left = LINGER_BYTES
        self.timer = asyncio.get_running_loop().call_later(LINGER_SECONDS, self._give_up)

    def data_received(self, data: bytes) -> None:
        self.left -= len(data)
        if self.left < 0:
            self._give_up()

    def eof_received(self) -> bool:
        self.timer.cancel()
        self.transport.close()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.timer.cancel()

    def _give_up(self) -> None:
        self.timer.cancel()
        self.transport.abort()


def linger(transport: asyncio.Transport) -> None:
    """Closes a connection after its answer, reading and dropping what its client still sends,
    so that the client (or a proxy still sending a body) reads the answer rather than a reset.
    A transport that cannot half-close (TLS) is closed at once."""
    if transport.is_closing():
        return
    if not transport.can_write_eof():
        transport.close()
        return
    transport.set_protocol(_Lingering(transport))
    transport.write_eof()
    transport.resume_reading()


class Reclaim:
    """Frees, once a second at most, the memory of connections that ended in a refusal.

    aiohttp keeps a refused read in a reference cycle (the parse error's traceback holds the
    read), which only the garbage collector frees; the relay lets the collector pass over
    young objects rarely (docs/performance.md). `due` is set when such a connection ends;
    `sweep` then collects young garbage and gives freed memory back to the system."""

    def __init__(self) -> None:
        self.due = False
        self._trim = _malloc_trim()

    def sweep(self) -> None:
        """Collects young garbage and returns free heap pages, if a refused connection ended."""
        if not self.due:
            return
        self.due = False
        gc.collect(0)
        if self._trim is not None:
            self._trim(0)


def _malloc_trim() -> Callable[[int], int] | None:
    """Returns glibc's malloc_trim, which hands free heap pages back to the system, if any."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    with contextlib.suppress(OSError, AttributeError):
        trim = ctypes.CDLL(name).malloc_trim
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
        return cast(Callable[[int], int], trim)
    return None


class Guard(asyncio.Protocol):
    """Stands between one connection and aiohttp's protocol for it: passes everything on (cut
    where a Framer says, so that aiohttp answers each request it reads whole), but stops
    reading while the client is more than `ahead` bytes past aiohttp's last answer, and
    closes by `linger` when aiohttp closes."""

    def __init__(self, inner: asyncio.Protocol, ahead: int, reclaim: Reclaim) -> None:
        self.inner = inner
        self.ahead = ahead
        self.reclaim = reclaim
        self.transport: asyncio.Transport | None = None
        self.unanswered = 0
        """Bytes received since aiohttp last wrote."""
        self.held = False
        """Whether the guard stopped reading."""
        self.paused = False
        """Whether aiohttp stopped reading."""
        self.closed = False
        self.framer = Framer()
        """Cuts reads where aiohttp would refuse or drop a request read whole in them."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.inner.connection_made(_Shield(self, self.transport))

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        self.unanswered += len(data)
        for read in self.framer.cut(data):
            if self.closed:
                break
            self.inner.data_received(read)
        if self.unanswered > self.ahead and not self.held and not self.closed:
            self.held = True
            self.reclaim.due = True
            if not self.paused and self.transport is not None:
                self.transport.pause_reading()

    def eof_received(self) -> bool | None:
        return None if self.closed else self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed:
            self.closed = True
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def answered(self) -> None:
        """Notes that aiohttp wrote: the client may send as much again."""
        self.unanswered = 0
        if self.held:
            self.held = False
            if not self.paused and self.transport is not None and not self.closed:
                self.transport.resume_reading()

    def close(self) -> None:
        """Closes for aiohttp: lingers, and tells aiohttp its connection is gone."""
        if self.closed or self.transport is None:
            return
        self.closed = True
        if self.unanswered:
            self.reclaim.due = True
        linger(self.transport)
        asyncio.get_running_loop().call_soon(self.inner.connection_lost, None)

    def set_paused(self, paused: bool) -> None:
        """Pauses or resumes reading for aiohttp, unless the guard holds it paused."""
        self.paused = paused
        if self.held or self.closed or self.transport is None:
            return
        if paused:
            self.transport.pause_reading()
        else:
            self.transport.resume_reading()


class _Shield(asyncio.Transport):
    """The transport aiohttp sees: the real one, but its writes reported to the guard, its
    close made a lingering one, and its pauses combined with the guard's."""

    def __init__(self, guard: Guard, transport: asyncio.Transport) -> None:
        super().__init__()
        self._guard = guard
        self._transport = transport

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._guard.answered()
        self._transport.write(data)

    def writelines(self, list_of_data: Any) -> None:
        self._guard.answered()
        self._transport.writelines(list_of_data)

    def close(self) -> None:
        self._guard.close()

    def abort(self) -> None:
        # The real transport's connection_lost then reaches aiohttp through the guard.
        self._transport.abort()

    def is_closing(self) -> bool:
        return self._guard.closed or self._transport.is_closing()

    def pause_reading(self) -> None:
        self._guard.set_paused(True)

    def resume_reading(self) -> None:
        self._guard.set_paused(False)

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def write_eof(self) -> None:
        self._transport.write_eof()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        raise NotImplementedError("aiohttp's connection keeps its protocol")

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._guard.inner
