"""The store's own connections to a Redis node (the pipe's and the notifier's): opened with
asyncio over TCP, a unix socket or TLS, as redis-py's public connection options say, then set
up as redis-py sets up its own (AUTH, CLIENT SETNAME, SELECT), speaking RESP2."""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from redis.asyncio.connection import ConnectionPool, SSLConnection, UnixDomainSocketConnection
from redis.asyncio.sentinel import SentinelConnectionPool
from redis.credentials import CredentialProvider
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from relay.store.redis.wire import MORE, pack, reader

__all__ = ["Dial", "Opener", "dial_for", "dial_of"]

Opener = Callable[[asyncio.Protocol], Awaitable[tuple[asyncio.Transport, Any]]]
"""Opens a connection to one node for a protocol (which reads it from then on), and returns
its transport with the hiredis reader to parse what the protocol reads (Dial.open is one)."""


@dataclass(frozen=True)
class Dial:
    """How to open and set up one connection to a Redis node."""

    host: str = "localhost"
    port: int = 6379
    path: str | None = None
    """A unix socket's path (then host and port are not used)."""
    tls: ssl.SSLContext | None = None
    username: str | None = None
    password: str | None = None
    credentials: CredentialProvider | None = None
    """Gives the username and password instead, when set."""
    db: int = 0
    client_name: str | None = None
    timeout: float | None = None
    """Seconds the connection may take to open and be set up."""
    decode: tuple[str, str] | None = None
    """The encoding and its error handling to decode text replies with (None: bytes)."""
    keepalive: Mapping[int, int] | None = None
    """TCP keepalive options to set beside SO_KEEPALIVE."""
    locate: Callable[[], Awaitable[tuple[str, int]]] | None = None
    """Finds the node's host and port at each connection (the primary Sentinels name)."""

    async def open(self, protocol: asyncio.Protocol) -> tuple[asyncio.Transport, Any]:
        """Opens and sets up a connection, then hands it to `protocol` (see Opener); raises
        redis-py's ConnectionError, TimeoutError or AuthenticationError when it cannot."""
        try:
            async with asyncio.timeout(self.timeout):
                return await self._open(protocol)
        except TimeoutError:
            raise RedisTimeoutError(f"Timeout connecting to Redis at {self._where()}") from None
        except OSError as exc:
            where = self._where()
            raise RedisConnectionError(f"Error connecting to Redis at {where}: {exc}") from exc

    async def _open(self, protocol: asyncio.Protocol) -> tuple[asyncio.Transport, Any]:
        loop = asyncio.get_running_loop()
        setup = _Setup(reader(self.decode), loop.create_future())
        if self.path is not None:
            transport, _ = await loop.create_unix_connection(lambda: setup, self.path)
        else:
            host, port = (self.host, self.port) if self.locate is None else await self.locate()
            transport, _ = await loop.create_connection(lambda: setup, host, port, ssl=self.tls)
        try:
            if self.path is None:
                self._keep_alive(transport)
            commands = await self._setup_commands()
            if commands:
                setup.wanted = len(commands)
                transport.write(pack(commands))
                for reply in await setup.done:
                    if isinstance(reply, RedisError):
                        raise reply
            transport.set_protocol(protocol)
            if transport.is_closing():
                raise RedisConnectionError("Redis closed the connection as it was set up")
        except BaseException:
            transport.abort()
            raise
        return transport, setup.reader

    async def _setup_commands(self) -> list[tuple[Any, ...]]:
        """Returns the commands that set up a connection, as redis-py sends them (RESP2)."""
        commands: list[tuple[Any, ...]] = []
        if self.credentials is not None:
            commands.append(("AUTH", *await self.credentials.get_credentials_async()))
        elif self.username:
            commands.append(("AUTH", self.username, self.password or ""))
        elif self.password:
            commands.append(("AUTH", self.password))
        if self.client_name:
            commands.append(("CLIENT", "SETNAME", self.client_name))
        if self.db:
            commands.append(("SELECT", self.db))
        return commands

    def _keep_alive(self, transport: asyncio.Transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            for option, value in (self.keepalive or {}).items():
                sock.setsockopt(socket.IPPROTO_TCP, option, value)

    def _where(self) -> str:
        return self.path if self.path is not None else f"{self.host}:{self.port}"


class _Setup(asyncio.Protocol):
    """Reads the replies to a connection's setup commands."""

    def __init__(self, reader: Any, done: asyncio.Future[list[Any]]) -> None:
        self.reader = reader
        self.done = done
        self.wanted = 0
        self._replies: list[Any] = []

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        try:
            while (reply := self.reader.gets()) is not MORE:
                self._replies.append(reply)
        except InvalidResponse as exc:
            self._end(RedisConnectionError(f"Redis sent what is not its protocol: {exc}"))
        if len(self._replies) >= self.wanted:
            self._end(self._replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(RedisConnectionError(f"Redis closed the connection as it was set up: {exc}"))

    def _end(self, outcome: list[Any] | Exception) -> None:
        if self.done.done():
            return
        if isinstance(outcome, Exception):
            self.done.set_exception(outcome)
        else:
            self.done.set_result(outcome)


def dial_of(kind: type[Any], options: Mapping[str, Any], locate: Any = None) -> Dial:
    """Returns how to open the connection that redis-py's connection class `kind` would open
    with these keyword arguments (a pool's or a cluster node's `connection_kwargs`); the
    TLS context is the one redis-py's SSLConnection makes of the `ssl_*` options."""
    tls = None
    if issubclass(kind, SSLConnection):
        made = SSLConnection(**{k: v for k, v in options.items() if k.startswith("ssl_")})
        tls = made.ssl_context.get()
    timeout = options.get("socket_connect_timeout") or options.get("socket_timeout")
    keepalive = options.get("socket_keepalive_options")  # redis-py 8: a marker when unset
    decode = None
    if options.get("decode_responses"):
        decode = (options.get("encoding", "utf-8"), options.get("encoding_errors", "strict"))
    return Dial(
        host=options.get("host", "localhost"),
        port=int(options.get("port", 6379)),
        path=options.get("path", "") if issubclass(kind, UnixDomainSocketConnection) else None,
        tls=tls,
        username=options.get("username"),
        password=options.get("password"),
        credentials=options.get("credential_provider"),
        db=int(options.get("db") or 0),
        client_name=options.get("client_name"),
        timeout=timeout,
        decode=decode,
        keepalive=keepalive if isinstance(keepalive, Mapping) else None,
        locate=locate,
    )


def dial_for(pool: ConnectionPool) -> Dial:
    """Returns how to open a connection like those of a redis-py pool (for a Sentinels'
    pool, to the primary they name at each connection)."""
    locate = pool.get_master_address if isinstance(pool, SentinelConnectionPool) else None
    return dial_of(pool.connection_class, pool.connection_kwargs, locate)
