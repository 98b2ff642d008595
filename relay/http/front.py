"""The lean HTTP/1.1 front: serves the route table's plain requests, hands the rest to aiohttp.

Each connection feeds what it receives to its RequestReader (llhttp, relay/http/reader.py),
hands each request read to Api.handle, and writes the answer. A request the reader leaves
to aiohttp (web pages, HTTP/1.0, chunked bodies, Expect, anything malformed) hands the
connection, from that request's first byte on, to aiohttp, which answers it in full. Slow
clients are bounded: a request's head and body must arrive within --request-timeout, an
idle keep-alive connection is closed after --keepalive-timeout, and a client that leaves
its answers unread is read no further. What the connections share, their sweep and their close
at shutdown are FrontState's (relay/http/front_state.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import cast

from relay.api.calls import Call, Pending, Reply
from relay.api.endpoints import error_reply, retry_after_header
from relay.api.routes import JSON
from relay.core.errors import RelayError
from relay.http.access import LINE, masked
from relay.http.front_state import MAX_BUFFERED, FrontState
from relay.http.guard import linger

__all__ = ["Front", "FrontProtocol"]

log = logging.getLogger("relay")
access_log = logging.getLogger("relay.access")

REASONS = {
    200: b"OK", 201: b"Created", 400: b"Bad Request", 401: b"Unauthorized",
    403: b"Forbidden", 404: b"Not Found", 405: b"Method Not Allowed",
    408: b"Request Timeout", 409: b"Conflict", 410: b"Gone", 413: b"Payload Too Large",
    415: b"Unsupported Media Type", 429: b"Too Many Requests", 500: b"Internal Server Error",
    503: b"Service Unavailable",
}  # fmt: skip


class Front(FrontState):
    """The lean front: what its connections share (FrontState), and each connection's protocol."""

    def protocol(self) -> FrontProtocol:
        """Returns the protocol of a new connection (the server's protocol factory)."""
        return FrontProtocol(self)


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
