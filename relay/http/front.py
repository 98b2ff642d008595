"""The lean HTTP/1.1 front: serves the route table's plain requests, hands the rest to aiohttp.

Each connection feeds what it receives to its RequestReader (llhttp, relay/http/reader.py),
hands each request read to Api.handle, and writes the answer. A request the reader leaves
to aiohttp (web pages, HTTP/1.0, chunked bodies, Expect, anything malformed) hands the
connection, from that request's first byte on, to aiohttp, which answers it in full. Slow
clients are bounded: a request's head and body must arrive within --request-timeout, an
idle keep-alive connection is closed after --keepalive-timeout, and a client that leaves
its answers unread is read no further."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import logging
import time
from collections.abc import Callable
from typing import cast

from relay.api.calls import Call, Pending, Reply
from relay.api.endpoints import Api, error_reply, retry_after_header
from relay.api.routes import JSON, Router
from relay.config import Config
from relay.core.errors import RelayError
from relay.http.access import LINE, masked
from relay.http.guard import Guard, Reclaim, linger
from relay.http.proxy import TrustedProxies
from relay.http.reader import RequestReader

__all__ = ["SWEEP", "Front", "FrontProtocol"]

log = logging.getLogger("relay")
access_log = logging.getLogger("relay.access")

SWEEP = 1.0
"""Seconds between two sweeps of the connections, and so how stale their clock may be."""

MAX_BUFFERED = 65536
"""Bytes a connection may send ahead of its answers before the front stops reading it."""

REASONS = {
    200: b"OK", 201: b"Created", 400: b"Bad Request", 401: b"Unauthorized",
    403: b"Forbidden", 404: b"Not Found", 405: b"Method Not Allowed",
    408: b"Request Timeout", 409: b"Conflict", 410: b"Gone", 413: b"Payload Too Large",
    415: b"Unsupported Media Type", 429: b"Too Many Requests", 500: b"Internal Server Error",
    503: b"Service Unavailable",
}  # fmt: skip


class Front:
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
        self.connections: set[FrontProtocol] = set()
        self.active = 0
        """Requests in progress."""
        self.idle: asyncio.Event | None = None
        """Set when no request is in progress, once shutdown waits for that."""
        self.proxies_gone: asyncio.Event | None = None
        """Set when no trusted proxy's connection is left, once shutdown waits for that."""
        self.date = b""
        self.now = 0.0
        self.tick()

    def protocol(self) -> FrontProtocol:
        """Returns the protocol of a new connection (the server's protocol factory)."""
        return FrontProtocol(self)

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

    def _from_proxy(self, conn: FrontProtocol) -> bool:
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

    def drop(self, conn: FrontProtocol) -> None:
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


class FrontProtocol(asyncio.Protocol):
    """One client connection: reads requests in order and answers each through the Api."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.api = front.api
        self.transport: asyncio.Transport | None = None
        self.reader = front.reader("")
        self.backlog = bytearray()
        """What the client sent while a request was in progress, not yet read."""
        self.busy = False
        self.close_after = False
        self.paused = False
        self.peer = ""
        self.since = front.now
        """When the connection last finished a request (or opened)."""
        self.started = 0.0
        """When the first byte of the request being read arrived."""
        self.began = 0.0
        """When the request in progress was read whole (for the access log's time)."""
        self.target = b""
        """The request line of the request in progress (for the access log)."""
        self.content_type = JSON
        """The media type of the request in progress's answer."""
        self.pending: Pending | None = None
        """The request in progress, to stop if the client goes away."""
        self.stalled: float | None = None
        """Since when the client has not read its answers (the transport's buffer is full)."""
        self.resting = False
        """Whether the client is over its request rate: nothing is read until it may send."""

    # -- connection ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses
        peer = transport.get_extra_info("peername")
        self.peer = peer[0] if isinstance(peer, tuple) and peer else "unix"
        self.reader = self.front.reader(self.peer)
        self.since = self.front.now
        self.front.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.front.drop(self)
        self.transport = None
        pending, self.pending = self.pending, None
        if self.busy:
            # A poll held for a client that left frees its place at once.
            self.busy = False
            self.front.settled()
            if pending is not None:
                pending.cancel()

    def close(self, answered: bool = False) -> None:
        """Closes the connection: at once if its client leaves its answers unread; after an
        answer, by `linger`, so that a client still sending (a body refused with 413, a
        request after `Connection: close`) reads the answer rather than a reset."""
        if self.transport is not None:
            if self.stalled is not None:
                self.transport.abort()
            elif answered:
                linger(self.transport)
            else:
                self.transport.close()
            self.transport = None
        self.front.drop(self)

    def check(self, request_limit: float, idle_limit: float) -> None:
        """Answers a request that is too slow to arrive with 408; closes a long-idle one;
        drops one whose client has not read its answers for as long as a request may take."""
        if self.stalled is not None:
            if self.stalled < request_limit and self.transport is not None:
                self.transport.abort()
            return
        if self.busy or self.resting or self.reader.ready:
            return
        if self.reader.in_message:
            if self.started < request_limit:
                self.close_after = True
                self._answer_error(RelayError("request/timeout"))
        elif self.since < idle_limit:
            self.close()

    def data_received(self, data: bytes) -> None:
        if self.busy or self.stalled is not None or self.resting or self.reader.ready:
            self.backlog += data
            if len(self.backlog) > MAX_BUFFERED and self.transport is not None:
                self.transport.pause_reading()
                self.paused = True
            return
        self._read(data)

    # -- requests --------------------------------------------------------------------------

    def _read(self, data: bytes) -> None:
        """Reads data, then starts the next request read, if any."""
        reader = self.reader
        if not reader.in_message:
            self.started = self.front.now
        reader.feed(data)
        self._next()

    def _next(self) -> None:
        """Starts the next request read; refuses or hands off the connection when its reader
        says so, once the requests before are answered."""
        reader = self.reader
        if reader.ready:
            call, keep_alive, target = reader.ready.pop(0)
            if not keep_alive:
                self.close_after = True
            self._start(call, target)
        elif reader.refusal is not None:
            self.close_after = True
            self._answer_error(reader.refusal)
        elif reader.handoff is not None:
            self._hand_off()

    def _start(self, call: Call, target: bytes) -> None:
        self.busy = True
        self.front.active += 1
        self.target = target
        self.content_type = call.route.content_type
        if self.front.config.access_log:
            self.began = time.monotonic()
        pending = self.api.handle(call, self._answer)
        if self.busy:  # not answered yet
            self.pending = pending

    # -- answers ---------------------------------------------------------------------------

    def _answer(self, reply: Reply | None, error: BaseException | None) -> None:
        """Writes a request's answer, then goes on to the next request."""
        if not self.busy:
            return
        self.pending = None
        extra, rest = b"", 0
        content_type = self.content_type
        if error is not None:
            if not isinstance(error, RelayError):
                log.error("unexpected error on %r", self.target, exc_info=error)
                error = RelayError("server/internal")
            self.api.metrics.errors[error.code] += 1
            if error.retry_after is not None:
                wait = retry_after_header(error.retry_after)
                extra = b"Retry-After: %s\r\n" % wait.encode()
                if error.code == "limit/requests":
                    rest = int(wait)
            reply = error_reply(error)
            content_type = JSON
        assert reply is not None
        status, body = reply
        transport = self.transport
        if self.api.lifecycle.closing:
            # Shutting down: the client (or the proxy) sends its next request elsewhere.
            self.close_after = True
        if transport is not None:
            if self.close_after:
                extra += b"Connection: close\r\n"
            transport.write(
                b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
                b"X-Content-Type-Options: nosniff\r\nDate: %s\r\n%s\r\n%s"
                % (
                    status, REASONS.get(status, b"OK"), content_type.encode(), len(body),
                    self.front.date, extra, body,
                )
            )  # fmt: skip
            if self.front.config.access_log:
                access_log.info(
                    LINE,
                    self.peer,
                    masked(self.target.decode("latin-1")),
                    status,
                    len(body),
                    time.monotonic() - self.began if self.began else 0.0,
                )
        self.busy = False
        self.front.settled()
        self.since = self.front.now
        if self.close_after:
            self.close(answered=True)
            return
        if rest:
            # A flood costs one answer per connection per Retry-After, not one per request.
            self.resting = True
            asyncio.get_running_loop().call_later(rest, self._wake)
        self._go_on()

    def _wake(self) -> None:
        self.resting = False
        if self.transport is not None and not self.busy:
            self.started = self.front.now
            self._go_on()

    def _go_on(self) -> None:
        """Reads on and starts the next request, unless the client leaves its answers unread
        (nothing more is read or answered until it takes them: memory stays bounded) or is
        resting after a 429 limit/requests (until its Retry-After)."""
        if self.stalled is not None or self.resting:
            if not self.paused and self.transport is not None:
                self.transport.pause_reading()
                self.paused = True
            return
        if self.paused and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()
        reader = self.reader
        if self.backlog or reader.ready or reader.refusal or reader.handoff is not None:
            # A request sent ahead of its answer starts from the loop, not from here: this
            # may run inside another connection's request (a move answering a held poll).
            asyncio.get_running_loop().call_soon(self._next_if_free)

    def _next_if_free(self) -> None:
        free = not self.busy and not self.resting and self.stalled is None
        if not free or self.transport is None:
            return
        if self.reader.ready or not self.backlog:
            self._next()
            return
        data = bytes(self.backlog)
        self.backlog.clear()
        self._read(data)

    def pause_writing(self) -> None:
        self.stalled = self.front.now

    def resume_writing(self) -> None:
        self.stalled = None
        if not self.busy and self.transport is not None:
            self._go_on()

    def _answer_error(self, error: RelayError) -> None:
        self.busy = True
        self.front.active += 1
        self.content_type = JSON
        self._answer(None, error)

    def _hand_off(self) -> None:
        """Gives the connection, from the first request the front does not serve on, to
        aiohttp."""
        transport = self.transport
        self.front.drop(self)
        if self.front.handoff is None or transport is None:
            self.close()
            return
        data = self.reader.handoff
        assert data is not None
        data += self.backlog
        self.backlog.clear()
        protocol = self.front.aiohttp_protocol()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        self.transport = None
        if self.paused:
            transport.resume_reading()
        protocol.data_received(bytes(data))
