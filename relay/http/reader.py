"""Reads the lean front's requests off a byte stream with llhttp (httptools), without a socket.

llhttp, Node.js's parser, reads every byte in its strict mode: request line, header syntax,
Content-Length and Transfer-Encoding. On top of it the reader applies what aiohttp's own
parser (also llhttp) checks besides: one Host in an HTTP/1.1 request, no repeated singleton
header, its line, field and header-count limits; and what the relay checks of the requests
aiohttp parses (relay/http/server.py): a Host that is a uri-host[:port]. The front serves
only the plainest requests of the route table: HTTP/1.1, origin-form, a Content-Length body
(or none), no Expect, Upgrade or Transfer-Encoding. Anything else, and anything llhttp or
those checks refuse, is handed to aiohttp from that request's first byte on, so aiohttp
answers it as it answers every request with --no-front: the front never reads a request
aiohttp would refuse, nor reads one differently."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import httptools
from aiohttp.helpers import parse_content_type

from relay.api.calls import Call
from relay.api.routes import Route, Router
from relay.core.errors import RelayError
from relay.http.host import HOST_BYTES

__all__ = ["MAX_FIELD", "MAX_HEAD", "MAX_HEADERS", "MAX_LINE", "RequestReader", "message_start"]

MAX_LINE = 8190
"""Longest request target the front reads (aiohttp's max_line_size)."""

MAX_FIELD = 8190
"""Longest header, name and value together (aiohttp's max_field_size)."""

MAX_HEADERS = 128
"""Most headers in a request (aiohttp's max_headers)."""

MAX_HEAD = 16384
"""Bytes of request line and headers the front reads before it leaves the request to aiohttp."""

QUERIES = 4096
"""Query strings whose parameters a front keeps (they repeat: 'wait=20', 'after=12')."""

NO_TYPE = "application/octet-stream"
"""The media type of a body sent without Content-Type (as aiohttp reads it, after RFC 2616)."""

# What the reader does with a header, by its lower-case name: each may come once (a bit of
# its own), or makes the request aiohttp's (_REFUSE).
_HOST, _AUTHORIZATION, _CONTENT_TYPE, _FORWARDED, _LENGTH, _REFUSE = 0, 1, 2, 3, 4, -1
_HEADERS: dict[bytes, int] = {
    b"host": _HOST,
    b"authorization": _AUTHORIZATION,
    b"content-type": _CONTENT_TYPE,
    b"x-forwarded-for": _FORWARDED,
    # The rest of the headers aiohttp refuses to see twice (RFC 9110's singletons).
    b"content-length": _LENGTH,
    b"content-location": 5,
    b"content-range": 6,
    b"etag": 7,
    b"max-forwards": 8,
    b"server": 9,
    b"user-agent": 10,
    # What aiohttp answers in ways of its own: chunked bodies, 100-continue, protocol switches.
    b"transfer-encoding": _REFUSE,
    b"expect": _REFUSE,
    b"upgrade": _REFUSE,
}
_HEADERS.update({name.title(): kind for name, kind in _HEADERS.items()})  # as usually sent


class _Stop(Exception):
    """Raised in a parser callback to stop reading where the front leaves off."""


class RequestReader:
    """Turns the bytes of one connection into the requests the front serves, in order.

    feed() appends each complete request to `ready` as (call, keep_alive, target), the target
    being its request line, for the access log. When the front is to serve no more of the
    connection, `handoff` holds the bytes from the first request it does not serve on
    (aiohttp's to answer), or `refusal` the error that ends it (413)."""

    def __init__(
        self,
        router: Router,
        max_body: int,
        client_of: Callable[[str | None], str],
        queries: dict[bytes, dict[str, str]] | None = None,
    ) -> None:
        self.router = router
        self.max_body = max_body
        self.client_of = client_of
        """Returns the client's address, given the request's X-Forwarded-For (or None)."""
        self.ready: list[tuple[Call, bool, bytes]] = []
        self.handoff: bytearray | None = None
        self.refusal: RelayError | None = None
        self.in_message = False
        """Whether part of a request has arrived, and not all of it."""
        self._parser = httptools.HttpRequestParser(self)
        self._unsplit: bytes | bytearray = b""
        """What arrived since the parser last stood between two requests at the end of a read:
        the bytes to hand to aiohttp from, should the front leave off in them."""
        self._done = 0
        """Requests completed within _unsplit."""
        # The request being read.
        self._url = b""
        self._headers = 0
        self._seen = 0
        self._length = 0
        self._route: Route | None = None
        self._match = ""
        self._host = False
        self._good_host = b"\x00"
        """The last Host value found valid (a connection sends the same one again and again)."""
        self._authorization: str | None = None
        self._content_type: bytes | None = None
        self._forwarded: str | None = None
        self._body: list[bytes] = []
        self._query = b""
        self._queries: dict[bytes, dict[str, str]] = {} if queries is None else queries
        """Query strings read before, and their parameters (shared by a front's connections)."""
        self._known: _Known | None = None
        """The last request that arrived alone in one read, as llhttp read it."""
        # What the last request of the connection read, to read the same again at no cost.
        self._last_type: tuple[bytes | None, str] = (None, NO_TYPE)
        self._last_client: tuple[str | None, str] = (None, client_of(None))

    def feed(self, data: bytes) -> None:
        """Reads data; see the class for where what it read goes."""
        if self.handoff is not None:
            self.handoff += data
            return
        if self._refused():
            return
        unsplit = self._unsplit
        if unsplit:
            if type(unsplit) is bytes:
                unsplit = self._unsplit = bytearray(unsplit)
            unsplit += data
        else:
            known = self._known
            if known is not None and len(data) == known.size and data.startswith(known.head):
                self.ready.append(known.again(data))
                return
            self._unsplit = data
            self._done = 0
        try:
            self._parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade):
            if not self._refused():
                self._hand_off()
            return
        if not self.in_message:
            if not unsplit and self._done == 1:  # data was one request, whole
                call, keep_alive, target = self.ready[-1]
                self._known = _Known(data[: len(data) - len(call.body)], call, keep_alive, target)
            self._unsplit = b""
        elif len(self._unsplit) > MAX_HEAD:
            if self._done:
                self._trim()
            if self._route is None and len(self._unsplit) > MAX_HEAD:
                self._hand_off()  # a head longer than the front reads

    def _refused(self) -> bool:
        """Returns whether the front is to refuse the request being read (a callback may set
        refusal while feed() runs: read through a call, which no type checker narrows)."""
        return self.refusal is not None

    def _hand_off(self) -> None:
        """Leaves the connection to aiohttp from the request being read on."""
        data = bytes(self._unsplit)
        self.handoff = bytearray(data[message_start(data, self._done) :])
        self.in_message = False

    def _trim(self) -> None:
        """Drops from _unsplit the requests completed in it (a pipelining client's)."""
        data = bytes(self._unsplit)
        self._unsplit = data[message_start(data, self._done) :]
        self._done = 0

    # -- llhttp's callbacks ------------------------------------------------------------------

    def on_message_begin(self) -> None:
        self.in_message = True
        self._url = b""
        self._headers = self._seen = self._length = 0
        self._route = None
        self._host = False
        self._authorization = self._content_type = self._forwarded = None
        self._body = []

    def on_url(self, url: bytes) -> None:
        self._url += url
        if len(self._url) > MAX_LINE:
            raise _Stop

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers += 1
        if self._headers > MAX_HEADERS or len(name) + len(value) > MAX_FIELD:
            raise _Stop
        kind = _HEADERS.get(name)
        if kind is None:
            kind = _HEADERS.get(name.lower())
            if kind is None:
                return
        if kind == _REFUSE:
            raise _Stop
        bit = 1 << kind
        if self._seen & bit:
            raise _Stop  # a repeated singleton, Authorization or X-Forwarded-For
        self._seen |= bit
        if kind == _HOST:
            if value != self._good_host:
                if HOST_BYTES.fullmatch(value.rstrip(b" \t")) is None:
                    raise _Stop  # not a uri-host[:port]: aiohttp refuses it
                self._good_host = value
            self._host = True
        elif kind == _AUTHORIZATION:
            self._authorization = value.rstrip(b" \t").decode("utf-8", "surrogateescape")
        elif kind == _CONTENT_TYPE:
            self._content_type = value.rstrip(b" \t")
        elif kind == _FORWARDED:
            self._forwarded = value.rstrip(b" \t").decode("utf-8", "surrogateescape")
        elif kind == _LENGTH:
            self._length = int(value)  # llhttp has read it as decimal digits

    def on_headers_complete(self) -> None:
        parser = self._parser
        if not self._host or parser.get_http_version() != "1.1" or self._url[:1] != b"/":
            raise _Stop
        url = httptools.parse_url(self._url)
        found = self.router.find(parser.get_method(), url.path)
        if found is None:
            raise _Stop
        self._route, self._match = found
        if self._length > self.max_body:
            self.refusal = RelayError(
                "request/too_large", f"The body is larger than {self.max_body} bytes."
            )
            raise _Stop
        self._query = _query_of(url) or b""

    def on_body(self, body: bytes) -> None:
        self._body.append(body)  # no more than Content-Length, checked against max_body

    def on_message_complete(self) -> None:
        route = self._route
        if route is None:  # a request llhttp reads with no head callback: not the front's
            raise _Stop
        self.in_message = False
        self._done += 1
        queries = self._queries
        parsed = queries.get(self._query)
        if parsed is None:
            parsed = {}
            for key, value in parse_qsl(self._query.decode("latin-1"), keep_blank_values=True):
                parsed.setdefault(key, value)
            if len(queries) >= QUERIES:
                queries.clear()
            queries[self._query] = parsed
        raw_type, content_type = self._last_type
        if self._content_type != raw_type:
            content_type = NO_TYPE
            if self._content_type is not None:
                text = self._content_type.decode("utf-8", "surrogateescape")
                content_type = parse_content_type(text)[0]
            self._last_type = (self._content_type, content_type)
        forwarded, client = self._last_client
        if self._forwarded != forwarded:
            client = self.client_of(self._forwarded)
            self._last_client = (self._forwarded, client)
        body = self._body
        call = Call(
            route, self._match, client, self._authorization, content_type, parsed,
            body[0] if len(body) == 1 else b"".join(body),
        )  # fmt: skip
        target = self._parser.get_method() + b" " + self._url + b" HTTP/1.1"
        self.ready.append((call, self._parser.should_keep_alive(), target))


class _Known:
    """A request that llhttp read whole from one read. The same bytes read again are the same
    request, read the same way (llhttp stands between requests before and after either), so
    a head byte for byte the same, followed by as many body bytes, is taken as read then."""

    __slots__ = ("call", "cut", "head", "keep_alive", "size", "target")

    def __init__(self, head: bytes, call: Call, keep_alive: bool, target: bytes) -> None:
        self.head = head
        self.cut = len(head)
        self.size = len(head) + len(call.body)
        self.call = call
        self.keep_alive = keep_alive
        self.target = target

    def again(self, data: bytes) -> tuple[Call, bool, bytes]:
        """Returns the request read from data, its head this one's."""
        call = self.call
        body = data[self.cut :]
        again = Call(
            call.route, call.match, call.client, call.authorization, call.content_type,
            call.query, body,
        )  # fmt: skip
        return again, self.keep_alive, self.target


def _query_of(url: Any) -> bytes | None:
    """Returns a parsed URL's query, None when it has none (httptools' stubs say bytes)."""
    query: bytes | None = url.query
    return query


class _Counter:
    """Counts the requests llhttp completes."""

    def __init__(self) -> None:
        self.done = 0

    def on_message_complete(self) -> None:
        self.done += 1


def _completed(data: bytes) -> int:
    """Returns how many requests llhttp reads whole from the start of data."""
    counter = _Counter()
    with contextlib.suppress(httptools.HttpParserError, httptools.HttpParserUpgrade):
        httptools.HttpRequestParser(counter).feed_data(data)
    return counter.done


def message_start(data: bytes, index: int) -> int:
    """Returns where request number index (from 0) begins in data, which begins with a request.

    llhttp tells no offsets, so this searches for the shortest start of data in which it
    reads index requests whole (a pipelining client's case only: index 0 begins at 0)."""
    low, high = 0, len(data)
    if index == 0:
        return 0
    while low < high:
        middle = (low + high) // 2
        if _completed(data[:middle]) >= index:
            high = middle
        else:
            low = middle + 1
    return low
