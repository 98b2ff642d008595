"""One pipelined connection to a Redis node, and hiredis's packer for redis-py's asyncio
connections (which pack commands in Python)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import hiredis
from redis.asyncio.connection import (
    AbstractConnection,
    Connection,
    SSLConnection,
    UnixDomainSocketConnection,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["Pipe", "packing"]


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


class Pipe:
    """One connection to Redis on which commands are pipelined: each batch is written as soon
    as it is made, without waiting for the answers of those before it, and the answers are
    read in order by one reader."""

    def __init__(
        self, connect: Callable[[], Any], idle_check: float = 1.0, stall: float = 5.0
    ) -> None:
        self._connect = connect
        """Makes a fresh (unconnected) redis-py connection to the node."""
        self._idle_check = idle_check
        """Seconds after which an unused connection is checked before it is written to."""
        self.stall = stall
        """Seconds without an answer, while some are awaited, after which the connection is
        given up (see check)."""
        self._conn: Any = None
        self._used = 0.0
        self._heard = 0.0
        """When the last answer arrived, or answers began to be awaited."""
        self._watch: asyncio.TimerHandle | None = None
        self._dropping: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._answers: deque[asyncio.Future[Any]] = deque()
        self._more = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def run(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Sends the commands and returns their answers (a refusal as its ResponseError);
        raises ConnectionError and the like when Redis cannot be reached."""
        loop = asyncio.get_running_loop()
        answers = [loop.create_future() for _ in commands]
        data = [b"".join(hiredis.pack_command(command) for command in commands)]
        async with self._lock:
            conn = await self._connection(loop.time())
            try:
                await conn.send_packed_command(data, check_health=False)
            except (RedisError, OSError, AttributeError, RuntimeError) as exc:  # closed meanwhile
                failure = RedisConnectionError(f"Writing to Redis failed: {exc}")
                await self._drop(conn, failure)
                raise failure from None
            # Answers to earlier batches come first: the reader reaches these after them.
            if not self._answers:
                self._heard = loop.time()
                if self._watch is None:
                    self._watch = loop.call_later(self.stall, self._check)
            self._answers.extend(answers)
            self._more.set()
        return list(await asyncio.gather(*answers, return_exceptions=True))

    async def _connection(self, now: float) -> Any:
        conn = self._conn
        if conn is not None and now - self._used > self._idle_check and not self._answers:
            try:  # a connection left unused may have been closed by a restarted Redis
                await conn.can_read_destructive()
            except (RedisError, OSError):
                await self._drop(conn)
                conn = None
        if conn is None:
            conn = self._connect()
            conn.socket_timeout = None  # answers are awaited without a timer each (see check)
            await conn.connect()
            self._conn = conn
            self._reader = asyncio.create_task(self._read(conn), name="redis-pipe-reader")
        self._used = now
        return conn

    async def _read(self, conn: Any) -> None:
        """Hands each answer to the oldest call waiting for one; fails them all if the
        connection breaks."""
        answers = self._answers
        try:
            while True:
                if not answers:
                    self._more.clear()
                    await self._more.wait()
                    continue
                try:
                    reply = await conn.read_response(disconnect_on_error=False)
                except ResponseError as refused:
                    reply = refused
                self._heard = asyncio.get_running_loop().time()
                answer = answers.popleft()
                if not answer.done():
                    answer.set_result(reply)
        except (RedisError, OSError) as exc:
            await self._drop(conn, exc)

    def _check(self) -> None:
        """Gives up the connection when answers have been awaited for `stall` seconds with
        none arriving (a Redis that hangs): the calls fail, and the next ones reconnect.
        Runs every `stall` seconds while answers are awaited."""
        self._watch = None
        conn, loop = self._conn, asyncio.get_running_loop()
        if conn is None or not self._answers:
            return
        if loop.time() - self._heard > self.stall:
            failure = RedisTimeoutError(f"No answer from Redis for {self.stall} s")
            task = asyncio.create_task(self._drop(conn, failure))
            self._dropping.add(task)
            task.add_done_callback(self._dropping.discard)
        else:
            self._watch = loop.call_later(self.stall, self._check)

    async def _drop(self, conn: Any, exc: RedisError | OSError | None = None) -> None:
        """Forgets the connection and fails every call still awaiting an answer on it with
        `exc` (a connection error when none is given)."""
        if self._conn is conn:
            self._conn = None
            reader, self._reader = self._reader, None
            if reader is not None and reader is not asyncio.current_task():
                reader.cancel()
        failure = exc or RedisConnectionError("Redis closed the connection")
        while self._answers:
            answer = self._answers.popleft()
            if not answer.done():
                answer.set_exception(failure)
                answer.exception()  # its caller may have gone: nothing to log then
        with contextlib.suppress(RedisError, OSError):
            await conn.disconnect(nowait=True)

    async def close(self) -> None:
        """Closes the connection (calls still waiting fail)."""
        conn, reader = self._conn, self._reader
        if conn is not None:
            await self._drop(conn)
        if reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
