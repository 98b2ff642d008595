"""What every connection of the lean front shares (FrontState), and what is done to them all at
once: the sweep that times out slow requests and idle connections each second, and the close
at shutdown (linger, close_idle, drain). The connections themselves are relay/http/front.py's."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import time
from collections.abc import Callable
from typing import Protocol

from relay.api.endpoints import Api
from relay.api.routes import Router
from relay.config import Config
from relay.http.guard import Guard, Reclaim
from relay.http.proxy import TrustedProxies
from relay.http.reader import RequestReader

__all__ = ["MAX_BUFFERED", "SWEEP", "Connection", "FrontState"]

SWEEP = 1.0
"""Seconds between two sweeps of the connections, and so how stale their clock may be."""

MAX_BUFFERED = 65536
"""Bytes a connection may send ahead of its answers before the front stops reading it."""


class Connection(Protocol):
    """What the front's sweep and shutdown ask of each of its connections (FrontProtocol)."""

    peer: str
    busy: bool

    def check(self, request_limit: float, idle_limit: float) -> None:
        """Times out a request too slow to arrive, or the connection when long idle."""

    def close(self, answered: bool = False) -> None:
        """Closes the connection."""


class FrontState:
    """What every connection of the front shares: the Api, settings, and aiohttp to hand to."""

    def __init__(self, api: Api, config: Config) -> None:
        self.api = api
        self.config = config
        self.router = Router(prefix=config.prefix)
        self.queries: dict[bytes, dict[str, str]] = {}
        """Query strings the connections read, and their parameters."""
        self.proxies = TrustedProxies(config.trusted_proxies) if config.trusted_proxies else None
        """Whose X-Forwarded-For names the client (rate limits count clients, not proxies)."""
        self.handoff: Callable[[], asyncio.Protocol] | None = None
        """Makes aiohttp's protocol for a connection handed over; set once aiohttp is up."""
        self.reclaim = Reclaim()
        """Frees what connections refused by aiohttp left to the garbage collector."""
        self.connections: set[Connection] = set()
        self.active = 0
        """Requests in progress."""
        self.idle: asyncio.Event | None = None
        """Set when no request is in progress, once shutdown waits for that."""
        self.proxies_gone: asyncio.Event | None = None
        """Set when no trusted proxy's connection is left, once shutdown waits for that."""
        self.date = b""
        self.now = 0.0
        self.tick()

    def aiohttp_protocol(self) -> asyncio.Protocol:
        """Returns aiohttp's protocol for a connection, behind a Guard that reads no further
        ahead of aiohttp's answers than a request with the largest body allowed."""
        assert self.handoff is not None
        return Guard(self.handoff(), MAX_BUFFERED + self.config.max_body, self.reclaim)

    def reader(self, peer: str) -> RequestReader:
        """Returns the request reader of a connection from peer."""
        proxies = self.proxies

        def client_of(forwarded: str | None) -> str:
            if forwarded and proxies is not None and proxies.trusts(peer):
                return proxies.client_of(forwarded)
            return peer

        return RequestReader(self.router, self.config.max_body, client_of, self.queries)

    def tick(self) -> None:
        """Updates the clock and the Date header (each sweep: once a second is enough for both)."""
        self.now = time.monotonic()
        self.date = email.utils.formatdate(usegmt=True).encode()

    def sweep(self) -> None:
        """Times out slow requests and idle keep-alive connections (called every second).

        Connections note when a request began, or when they went idle, by the clock of the
        last sweep, which may be up to a second behind: one second more is allowed, so that
        none is cut before its time (a timeout comes up to two seconds late)."""
        self.tick()
        self.reclaim.sweep()
        request_limit = self.now - self.config.request_timeout - SWEEP
        idle_limit = self.now - self.config.keepalive_timeout - SWEEP
        for conn in list(self.connections):
            conn.check(request_limit, idle_limit)

    def _from_proxy(self, conn: Connection) -> bool:
        return self.proxies is not None and self.proxies.trusts(conn.peer)

    async def linger(self, seconds: float) -> None:
        """At shutdown, once the listener is closed: closes the idle connections of clients at
        once, and keeps those of trusted proxies open for up to `seconds`, or until none is
        left. A request a proxy sent on one meanwhile is answered (polls at once) and its
        connection closed after it; the proxy's own idle timeout for its upstream
        connections, shorter than `seconds`, closes the rest. So no request that a proxy
        sends is cut off by a close from here (the race of closing a kept-alive connection,
        which a proxy cannot retry for a POST)."""
        for conn in list(self.connections):
            if not conn.busy and not self._from_proxy(conn):
                conn.close()
        if any(map(self._from_proxy, self.connections)):
            self.proxies_gone = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    await self.proxies_gone.wait()

    def drop(self, conn: Connection) -> None:
        """Forgets a connection closed or handed to aiohttp."""
        self.connections.discard(conn)
        gone = self.proxies_gone
        if gone is not None and not any(map(self._from_proxy, self.connections)):
            gone.set()

    def close_idle(self) -> None:
        """Closes every connection that has no request in progress (at shutdown)."""
        for conn in list(self.connections):
            if not conn.busy:
                conn.close()

    async def drain(self, timeout: float) -> None:
        """Waits until every request in progress is answered, at most timeout seconds."""
        self.idle = asyncio.Event()
        if self.active:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.idle.wait()
        for conn in list(self.connections):
            conn.close()

    def settled(self) -> None:
        """Counts one request in progress less."""
        self.active -= 1
        if not self.active and self.idle is not None:
            self.idle.set()
