"""One pipelined connection to a Redis node, and hiredis's packer for redis-py's asyncio
connections (which pack commands in Python)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import hiredis
from redis.asyncio.connection import (
    AbstractConnection,
    Connection,
    SSLConnection,
    UnixDomainSocketConnection,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from relay.store.redis.dial import Opener
from relay.store.redis.wire import MORE, pack

__all__ = ["Feed", "Pipe", "Reply", "packing"]

log = logging.getLogger("relay.redis")

Reply = Callable[[Any], None]
"""Takes one command's answer: its reply (a refusal as its ResponseError), or the
RedisError or OSError that kept it from coming (a lost connection, say)."""


class _HiredisPacking:
    """Packs commands with hiredis.pack_command, as redis-py's blocking connections do."""

    def pack_command(self, *args: Any) -> list[bytes]:
        """Returns the command in the Redis protocol."""
        first = args[0]
        if isinstance(first, str) and " " in first:
            args = (*first.split(), *args[1:])
        return [hiredis.pack_command(args)]

    def pack_commands(self, commands: Iterable[Iterable[Any]]) -> list[bytes]:
        """Returns the commands in the Redis protocol, as one buffer."""
        return [b"".join(self.pack_command(*command)[0] for command in commands)]


class _PackedConnection(_HiredisPacking, Connection):
    pass


class _PackedUnixConnection(_HiredisPacking, UnixDomainSocketConnection):
    pass


class _PackedSSLConnection(_HiredisPacking, SSLConnection):
    pass


_PACKED: dict[type[AbstractConnection], type[AbstractConnection]] = {
    Connection: _PackedConnection,
    UnixDomainSocketConnection: _PackedUnixConnection,
    SSLConnection: _PackedSSLConnection,
}


def packing(kind: type[AbstractConnection]) -> type[AbstractConnection]:
    """Returns the connection class like `kind` that packs commands with hiredis (or `kind`
    itself when there is none)."""
    return _PACKED.get(kind, kind)


class Feed(asyncio.Protocol):
    """The protocol of a connection once it is set up (see Opener): hands each read to
    `received`, and the connection's end to `lost`."""

    def __init__(
        self,
        received: Callable[[Feed, bytes], None],
        lost: Callable[[Feed, Exception | None], None],
    ) -> None:
        self._received = received
        self._lost = lost

    def data_received(self, data: bytes) -> None:
        self._received(self, data)

    def eof_received(self) -> bool:
        return False  # the transport closes, and connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost(self, exc)


def _set_reply(answer: asyncio.Future[Any], reply: Any) -> None:
    """Makes the reply the answer's result, an error too (run sorts them out)."""
    if not answer.done():
        answer.set_result(reply)


class Pipe:
    """One connection to Redis on which commands are pipelined: each batch is written as soon
    as it is made, without waiting for the answers of those before it, and each answer is
    handed to its caller's Reply as soon as it is read, in the loop turn that reads it.

    `opener` opens the connection (socket or TLS, AUTH, SELECT, client name: Dial.open) and
    gives the hiredis reader the answers are read with."""

    def __init__(self, opener: Opener, stall: float = 5.0) -> None:
        self._opener = opener
        """Opens a fresh connection to the node."""
        self.stall = stall
        """Seconds without an answer, while some are awaited, after which the connection is
        given up (see _check)."""
        self._transport: asyncio.Transport | None = None
        self._protocol: Feed | None = None
        self._hiredis: Any = None
        self._waiting: deque[Reply] = deque()
        """The Reply of every command written and not answered yet, oldest first."""
        self._queued: list[tuple[bytes, list[Reply]]] = []
        """Batches made while the connection opens."""
        self._opening: asyncio.Task[None] | None = None
        self._heard = 0.0
        """When the last answer arrived, or answers began to be awaited."""
        self._watch: asyncio.TimerHandle | None = None
        self._emptied: asyncio.Future[None] | None = None

    def send(self, commands: list[tuple[Any, ...]], replies: list[Reply]) -> None:
        """Writes the commands (opening the connection first if need be); each answer goes to
        the Reply of the same rank. A Reply must not raise."""
        data = pack(commands)
        transport = self._transport
        if transport is not None and transport.is_closing():  # lost, and not told yet
            self._drop(RedisConnectionError("Redis closed the connection"))
            transport = None
        if transport is None:
            self._queued.append((data, replies))
            if self._opening is None:
                self._opening = asyncio.create_task(self._open(), name="redis-pipe-open")
            return
        self._write(transport, data, replies)

    async def run(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Sends the commands and returns their answers (a refusal as its ResponseError);
        raises ConnectionError and the like when Redis cannot be reached."""
        loop = asyncio.get_running_loop()
        answers = [loop.create_future() for _ in commands]
        self.send(commands, [partial(_set_reply, answer) for answer in answers])
        found = [await answer for answer in answers]
        for reply in found:
            if isinstance(reply, Exception) and not isinstance(reply, ResponseError):
                raise reply
        return found

    def _write(self, transport: asyncio.Transport, data: bytes, replies: list[Reply]) -> None:
        try:
            transport.write(data)
        except (RuntimeError, OSError) as exc:  # a transport closed under the write
            failure = RedisConnectionError(f"Writing to Redis failed: {exc}")
            self._drop(failure)
            for reply in replies:
                reply(failure)
            return
        if not self._waiting:
            loop = asyncio.get_running_loop()
            self._heard = loop.time()
            if self._watch is None:
                self._watch = loop.call_later(self.stall, self._check)
        self._waiting.extend(replies)

    async def _open(self) -> None:
        """Opens the connection and writes the batches queued meanwhile; fails them if it
        cannot be opened."""
        protocol = Feed(self._received, self._lost)
        try:
            # Answers are awaited without a timer each (see _check).
            transport, reader = await self._opener(protocol)
        except Exception as exc:  # unreachable (RedisError, OSError), or a bug: told, not hung
            queued, self._queued = self._queued, []
            for _, replies in queued:
                for reply in replies:
                    reply(exc)
            return
        finally:
            self._opening = None
        self._transport, self._protocol, self._hiredis = transport, protocol, reader
        queued, self._queued = self._queued, []
        for data, replies in queued:
            if self._transport is transport:
                self._write(transport, data, replies)
            else:  # lost while writing the batches before
                for reply in replies:
                    reply(RedisConnectionError("Redis closed the connection"))

    def _received(self, protocol: Feed, data: bytes) -> None:
        """Hands each whole answer to the oldest Reply waiting."""
        if protocol is not self._protocol:
            return
        reader, waiting = self._hiredis, self._waiting
        reader.feed(data)
        self._heard = asyncio.get_running_loop().time()
        while True:
            try:
                reply = reader.gets()
            except InvalidResponse as exc:
                self._drop(RedisConnectionError(f"Redis sent what is not its protocol: {exc}"))
                return
            if reply is MORE:
                break
            if not waiting:
                self._drop(RedisConnectionError("Redis answered a command never sent"))
                return
            waiting.popleft()(reply)
        if not waiting and self._emptied is not None and not self._emptied.done():
            self._emptied.set_result(None)

    def _lost(self, protocol: Feed, exc: Exception | None) -> None:
        if protocol is self._protocol:
            reason = f": {exc}" if exc else ""
            self._drop(RedisConnectionError(f"Redis closed the connection{reason}"))

    def _check(self) -> None:
        """Gives up the connection when answers have been awaited for `stall` seconds with
        none arriving (a Redis that hangs): the calls fail, and the next ones reconnect.
        Runs every `stall` seconds while answers are awaited."""
        self._watch = None
        if self._transport is None or not self._waiting:
            return
        loop = asyncio.get_running_loop()
        if loop.time() - self._heard > self.stall:
            self._drop(RedisTimeoutError(f"No answer from Redis for {self.stall} s"))
        else:
            self._watch = loop.call_later(self.stall, self._check)

    def _drop(self, failure: RedisError | OSError) -> None:
        """Closes the connection and fails every command still awaiting an answer on it."""
        transport = self._transport
        self._transport = self._protocol = self._hiredis = None
        if transport is not None:
            transport.abort()
        waiting, self._waiting = self._waiting, deque()
        for reply in waiting:
            reply(failure)
        if self._emptied is not None and not self._emptied.done():
            self._emptied.set_result(None)

    async def close(self) -> None:
        """Waits up to `stall` seconds for the answers awaited, then closes the connection
        (commands still waiting fail)."""
        if self._opening is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._opening
        if self._waiting and self._transport is not None:
            self._emptied = asyncio.get_running_loop().create_future()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._emptied), self.stall)
        self._drop(RedisConnectionError("The Redis connection was closed"))
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
