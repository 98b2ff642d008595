"""The lean HTTP/1.1 front: serves the protocol's own requests, hands anything else to aiohttp.

Every move goes through the relay, so its requests take a short path: the front reads plain
HTTP/1.1 requests of the protocol (seek, events, moves, pass, confirm, resign, cancel, match,
healthz) straight off the socket and answers them through the same Api as the aiohttp
handlers. A request it does not serve (pages, metrics, OpenAPI, anything unusual: chunked
bodies, Expect, HTTP/1.0, percent-encoded paths) hands its connection, from that request on,
to aiohttp, which answers it in full. Slow clients are bounded: a request's head and body
must arrive within --request-timeout, and an idle keep-alive connection is closed after
--keepalive-timeout."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, cast

from relay.api import Api, MovePlan, Reply, error_reply, retry_after_header
from relay.config import Config
from relay.errors import RelayError
from relay.memory_store import Held, MemoryStore
from relay.web_proxy import TrustedProxies

__all__ = ["SWEEP", "Front", "FrontProtocol", "drive"]

log = logging.getLogger("relay")
access_log = logging.getLogger("relay.access")

MAX_HEAD = 16384
"""Bytes of request line and headers the front reads before it leaves the request to aiohttp
(which answers an over-long head with 400)."""

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

# What a request asks for, once routed.
SEEK, EVENTS, MOVE, PASS, CONFIRM, RESIGN, CANCEL, INFO, HEALTH = range(9)
_ACTIONS = {
    b"events": (b"GET", EVENTS),
    b"moves": (b"POST", MOVE),
    b"pass": (b"POST", PASS),
    b"confirm": (b"POST", CONFIRM),
    b"resign": (b"POST", RESIGN),
    b"cancel": (b"POST", CANCEL),
}
_ID_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.~")

Done = Callable[[Any, BaseException | None], None]


def drive(coro: Coroutine[Any, Any, Any], done: Done) -> _Resume | None:
    """Runs coro at once, without a task, and calls done(result, error) when it finishes.

    For coroutines that need nothing of a task: they finish at once or wait on plain futures
    (the memory store's). A poll that has to wait costs a callback, not a task."""
    try:
        waiting = coro.send(None)
    except StopIteration as stop:
        done(stop.value, None)
        return None
    except Exception as exc:
        done(None, exc)
        return None
    resume = _Resume(coro, done)
    resume.wait_on(waiting)
    return resume


class _Resume:
    """Carries on a coroutine that drive() started, each time what it awaits is done."""

    __slots__ = ("cancelled", "coro", "done")

    def __init__(self, coro: Coroutine[Any, Any, Any], done: Done) -> None:
        self.coro = coro
        self.done = done
        self.cancelled = False

    def cancel(self) -> None:
        """Stops the coroutine where it waits (its finally blocks run); done is not called."""
        self.cancelled = True
        self.coro.close()

    def wait_on(self, waiting: Any) -> None:
        if waiting is None:  # a bare yield: asyncio.sleep(0)
            asyncio.get_running_loop().call_soon(self.step)
            return
        waiting._asyncio_future_blocking = False
        waiting.add_done_callback(self.step)

    def step(self, _: object = None) -> None:
        if self.cancelled:
            return
        try:
            waiting = self.coro.send(None)
        except StopIteration as stop:
            self.done(stop.value, None)
        except Exception as exc:
            self.done(None, exc)
        else:
            self.wait_on(waiting)


@dataclass(frozen=True, slots=True)
class _Head:
    """A request's line and headers as the front reads them. A keep-alive connection often
    sends the same head again (the next move of a match, the next poll), which is then
    taken as it was read the time before, without reading it again."""

    head: bytes
    request_line: bytes
    code: int
    match: str
    client: str
    authorization: str | None
    content_type: str
    query: dict[str, str]
    length: int
    close: bool


class Front:
    """What every connection of the front shares: the Api, settings, and aiohttp to hand to."""

    def __init__(self, api: Api, config: Config) -> None:
        self.api = api
        self.config = config
        self.prefix = config.prefix.encode()
        self.eager = bool(getattr(api.store, "eager", False))
        self.memory = api.store if isinstance(api.store, MemoryStore) else None
        """The memory store, which moves are played on without coroutines."""
        self.proxies = TrustedProxies(config.trusted_proxies) if config.trusted_proxies else None
        """Whose X-Forwarded-For names the client (rate limits count clients, not proxies)."""
        self.handoff: Callable[[], asyncio.Protocol] | None = None
        """Makes aiohttp's protocol for a connection handed over; set once aiohttp is up."""
        self.connections: set[FrontProtocol] = set()
        self.active = 0
        """Requests in progress."""
        self.idle: asyncio.Event | None = None
        """Set when no request is in progress, once shutdown waits for that."""
        self.date = b""
        self.now = 0.0
        self.tick()

    def protocol(self) -> FrontProtocol:
        """Returns the protocol of a new connection (the server's protocol factory)."""
        return FrontProtocol(self)

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
        request_limit = self.now - self.config.request_timeout - SWEEP
        idle_limit = self.now - self.config.keepalive_timeout - SWEEP
        for conn in list(self.connections):
            conn.check(request_limit, idle_limit)

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

    __slots__ = (
        "api",
        "began",
        "buffer",
        "busy",
        "close_after",
        "front",
        "known",
        "paused",
        "peer",
        "pending",
        "plan",
        "request_line",
        "resting",
        "since",
        "stalled",
        "started",
        "transport",
    )

    def __init__(self, front: Front) -> None:
        self.front = front
        self.api = front.api
        self.transport: asyncio.Transport | None = None
        self.buffer: bytes | bytearray = b""
        """What the client sent that is not yet read as a request: the bytes of one read as
        they came (a request arriving whole is taken from them without a copy), or a
        bytearray once several reads gather (each appended in amortized constant time)."""
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
        self.request_line = b""
        self.known: _Head | None = None
        """The last request head read, to take as it is when the next one is the same."""
        self.plan: tuple[_Head, MovePlan] | None = None
        """What the last move head read decides (token, digest, wait), read once per head."""
        self.pending: _Resume | asyncio.Future[Reply] | Held | None = None
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
        self.since = self.front.now
        self.front.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.front.connections.discard(self)
        self.transport = None
        pending, self.pending = self.pending, None
        if self.busy and pending is not None:
            # A poll held for a client that left frees its place at once.
            pending.cancel()
            self.busy = False
            self.front.settled()

    def close(self) -> None:
        """Closes the connection (at once if its client leaves its answers unread)."""
        if self.transport is not None:
            if self.stalled is not None:
                self.transport.abort()
            else:
                self.transport.close()
            self.transport = None
        self.front.connections.discard(self)

    def check(self, request_limit: float, idle_limit: float) -> None:
        """Answers a request that is too slow to arrive with 408; closes a long-idle one;
        drops one whose client has not read its answers for as long as a request may take."""
        if self.stalled is not None:
            if self.stalled < request_limit and self.transport is not None:
                self.transport.abort()
            return
        if self.busy or self.resting:
            return
        if self.buffer:
            if self.started < request_limit:
                self.close_after = True
                self._answer_error(RelayError("request/timeout"))
        elif self.since < idle_limit:
            self.close()

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        if buffer:
            if type(buffer) is bytes:
                buffer = self.buffer = bytearray(buffer)
            buffer += data
        else:
            self.started = self.front.now
            self.buffer = data
        if self.busy or self.stalled is not None or self.resting:
            if len(self.buffer) > MAX_BUFFERED and self.transport is not None:
                self.transport.pause_reading()
                self.paused = True
            return
        self._next()

    # -- requests --------------------------------------------------------------------------

    def _next(self) -> None:
        """Reads and starts the next complete request in the buffer, if there is one."""
        buffer = self.buffer
        end = buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(buffer) > MAX_HEAD:
                self._hand_off()
            return
        parsed = self.known
        if parsed is None or len(parsed.head) != end or not buffer.startswith(parsed.head):
            parsed = self._parse(bytes(buffer[:end]))
            if parsed is None:
                self._hand_off()
                return
            self.known = parsed
        if parsed.close:
            self.close_after = True
        length = parsed.length
        if length > self.front.config.max_body:
            self.close_after = True
            self.request_line = parsed.request_line
            self._answer_error(
                RelayError(
                    "request/too_large",
                    f"The body is larger than {self.front.config.max_body} bytes.",
                )
            )
            return
        total = end + 4 + length
        if len(buffer) < total:
            return
        body = buffer[end + 4 : total]
        if type(body) is not bytes:
            body = bytes(body)
        self.buffer = buffer[total:]
        self.request_line = parsed.request_line
        self.busy = True
        self.front.active += 1
        if self.front.config.access_log:
            self.began = time.monotonic()
        memory = self.front.memory
        if memory is not None and parsed.code == MOVE:
            # The hot path: a move on the memory store answers through callbacks only.
            api = self.api
            try:
                api.admit(parsed.client)
                plan = self.plan
                if plan is None or plan[0] is not parsed:
                    plan = self.plan = (parsed, api.move_plan(parsed.authorization, parsed.query))
                held = api.move_now(
                    memory, parsed.match, plan[1], parsed.content_type, body, self._answer
                )
            except RelayError as error:
                self._answer(None, error)
                return
            if held is not None:
                self.pending = held
            return
        try:
            coro = self._call(parsed, body)
        except RelayError as error:
            self._answer(None, error)
            return
        if self.front.eager:
            resume = drive(coro, self._answer)
            if resume is not None:  # None: answered already (and maybe on to the next)
                self.pending = resume
        else:
            task = asyncio.ensure_future(coro)
            task.add_done_callback(self._task_done)
            self.pending = task

    def _parse(self, head: bytes) -> _Head | None:
        """Reads a request's line and headers; None for a request to hand to aiohttp."""
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3 or parts[2] != b"HTTP/1.1":
            return None
        method, target = parts[0], parts[1]
        path, _, query = target.partition(b"?")
        route = self._route(method, path)
        if route is None or b"%" in query or b"+" in query:
            return None
        code, match = route
        length = 0
        authorization: str | None = None
        content_type = ""
        forwarded = b""
        close = False
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon or not name or name[-1:] in (b" ", b"\t"):
                return None
            name = name.lower()
            value = value.strip()
            if name == b"authorization":
                if authorization is not None:
                    return None
                authorization = value.decode("latin-1")
            elif name == b"content-length":
                if length or not value.isdigit() or len(value) > 12:
                    return None
                length = int(value)
            elif name == b"content-type":
                content_type = value.split(b";", 1)[0].strip().lower().decode("latin-1")
            elif name == b"connection":
                close = close or value.lower() == b"close"
            elif name in (b"transfer-encoding", b"expect", b"upgrade"):
                return None
            elif name == b"x-forwarded-for":
                forwarded = value
        client, proxies = self.peer, self.front.proxies
        if forwarded and proxies is not None and proxies.trusts(client):
            client = proxies.client_of(forwarded.decode("latin-1"))
        return _Head(
            head, lines[0], code, match, client, authorization, content_type, _query(query),
            length, close,
        )  # fmt: skip

    def _route(self, method: bytes, path: bytes) -> tuple[int, str] | None:
        prefix = self.front.prefix
        if prefix:
            if not path.startswith(prefix + b"/"):
                return None
            path = path[len(prefix) :]
        if path.startswith(b"/v1/matches/"):
            rest = path[12:].split(b"/")
            if not rest[0] or not _ID_CHARS.issuperset(rest[0]):
                return None
            if len(rest) == 1:
                return (INFO, rest[0].decode()) if method == b"GET" else None
            if len(rest) != 2:
                return None
            wanted = _ACTIONS.get(rest[1])
            if wanted is None or wanted[0] != method:
                return None
            return wanted[1], rest[0].decode()
        if path == b"/v1/seek":
            return (SEEK, "") if method == b"POST" else None
        if path == b"/healthz":
            return (HEALTH, "") if method == b"GET" else None
        return None

    def _call(self, head: _Head, body: bytes) -> Coroutine[Any, Any, Reply]:
        api, code, client, match = self.api, head.code, head.client, head.match
        if code == MOVE:
            return api.move(client, match, head.authorization, head.query, head.content_type, body)
        if code == EVENTS:
            return api.events(client, match, head.authorization, head.query)
        if code == PASS:
            return api.pass_turn(client, match, head.authorization, head.content_type, body)
        if code == SEEK:
            return api.seek(client, head.content_type, body)
        if code == CONFIRM:
            return api.confirm(client, match, head.authorization, head.content_type, body)
        if code == RESIGN:
            return api.resign(client, match, head.authorization, head.content_type, body)
        if code == CANCEL:
            return api.cancel(client, match, head.authorization)
        if code == INFO:
            return api.match_info(client, match)
        return api.healthz()

    def _task_done(self, task: asyncio.Future[Reply]) -> None:
        if task.cancelled():
            if self.busy:  # cancelled from outside, not by connection_lost
                self._answer(None, RelayError("server/shutting_down"))
        else:
            error = task.exception()
            self._answer(None if error else task.result(), error)

    # -- answers ---------------------------------------------------------------------------

    def _answer(self, reply: Reply | None, error: BaseException | None) -> None:
        """Writes a request's answer, then goes on to the next request."""
        if not self.busy:
            return
        self.pending = None
        extra, rest = b"", 0
        if error is not None:
            if not isinstance(error, RelayError):
                log.error("unexpected error on %r", self.request_line, exc_info=error)
                error = RelayError("server/internal")
            self.api.metrics.errors[error.code] += 1
            if error.retry_after is not None:
                wait = retry_after_header(error.retry_after)
                extra = b"Retry-After: %s\r\n" % wait.encode()
                if error.code == "limit/requests":
                    rest = int(wait)
            reply = error_reply(error)
        assert reply is not None
        status, body = reply
        transport = self.transport
        if transport is not None:
            if self.close_after:
                extra += b"Connection: close\r\n"
            transport.write(
                b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                b"Date: %s\r\n%s\r\n%s"
                % (status, REASONS.get(status, b"OK"), len(body), self.front.date, extra, body)
            )
            if self.front.config.access_log:
                access_log.info(
                    '%s "%s" %d %d %.6fs',
                    self.peer,
                    self.request_line.decode("latin-1"),
                    status,
                    len(body),
                    time.monotonic() - self.began if self.began else 0.0,
                )
        self.busy = False
        self.front.settled()
        self.since = self.front.now
        if self.close_after:
            self.close()
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
        if self.buffer:
            # A request sent ahead of its answer starts from the loop, not from here: this
            # may run inside another connection's request (a move answering a held poll).
            self.started = self.front.now
            asyncio.get_running_loop().call_soon(self._next_if_free)

    def _next_if_free(self) -> None:
        free = not self.busy and not self.resting and self.stalled is None
        if free and self.transport is not None:
            self._next()

    def pause_writing(self) -> None:
        self.stalled = self.front.now

    def resume_writing(self) -> None:
        self.stalled = None
        if not self.busy and self.transport is not None:
            self._go_on()

    def _answer_error(self, error: RelayError) -> None:
        self.busy = True
        self.front.active += 1
        self.buffer = b""
        self._answer(None, error)

    def _hand_off(self) -> None:
        """Gives the connection, from the request at the head of the buffer on, to aiohttp."""
        handoff, transport = self.front.handoff, self.transport
        self.front.connections.discard(self)
        if handoff is None or transport is None:
            self.close()
            return
        protocol = handoff()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        data, self.transport = bytes(self.buffer), None
        self.buffer = b""
        if self.paused:
            transport.resume_reading()
        protocol.data_received(data)


def _query(raw: bytes) -> dict[str, str]:
    """Returns the parameters of a query string with no percent-encoding (the front's case)."""
    found: dict[str, str] = {}
    if raw:
        for pair in raw.split(b"&"):
            key, _, value = pair.partition(b"=")
            found.setdefault(key.decode("latin-1"), value.decode("latin-1"))
    return found
