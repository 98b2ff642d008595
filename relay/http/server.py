"""aiohttp's side of a connection as the relay runs it: refusals that quote nothing of the
request, and the checks aiohttp's parser leaves to the server.

aiohttp answers a request its parser refuses with the parser's message, which quotes the
offending line (a token in an Authorization header among them): `RelayRequestHandler` answers
such a refusal with its status alone. `Connections` makes that handler for each connection
aiohttp serves, in the place of aiohttp's own, for the runner's server, and checks each
request aiohttp parsed before the application sees it: an HTTP version other than 1.x
(llhttp reads HTTP/2.0, and a request line without a version as HTTP/0.9) is answered `505`,
a Host that is not a uri-host[:port] `400`, both in plain text, closing the connection. A
request asking to switch protocols (`Connection: Upgrade`), which the relay never does, is
answered as any other, then the connection is closed: aiohttp's parser stops at the end of
its head, and drops whatever the read held after it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.abc import AbstractStreamWriter
from aiohttp.http import HttpVersion, HttpVersion11, RawRequestMessage
from aiohttp.streams import StreamReader
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from relay.http.host import HOST

__all__ = [
    "NOSNIFF",
    "RECEIVED_VERSION",
    "UPGRADE",
    "Connections",
    "RelayRequestHandler",
    "refusal",
    "refusal_text",
]

RequestFactory = Callable[
    [RawRequestMessage, StreamReader, RequestHandler, AbstractStreamWriter, "asyncio.Task[None]"],
    BaseRequest,
]
Handler = Callable[[BaseRequest], Awaitable[web.StreamResponse]]

RECEIVED_VERSION = web.RequestKey("received_version", HttpVersion)
"""The HTTP version a request came with, when it is not 1.x (the request then reads as 1.1,
so that its 505 is sent as HTTP/1.1)."""

UPGRADE = web.RequestKey("upgrade", bool)
"""Set in a request that asks to switch protocols (or a CONNECT): its connection is closed
after the answer."""

NOSNIFF = {"X-Content-Type-Options": "nosniff"}
"""Tells a browser to take an answer for its Content-Type, never to sniff it for markup."""


def refusal_text(status: int) -> str:
    """Returns the plain-text body of a refusal: its status and reason, nothing of the request."""
    return f"{status} {HTTPStatus(status).phrase}\n"


def refusal(status: int) -> web.Response:
    """Returns a plain-text refusal of a request as HTTP that closes the connection."""
    response = web.Response(
        status=status, text=refusal_text(status), content_type="text/plain", headers=NOSNIFF
    )
    response.force_close()
    return response


class RelayRequestHandler(RequestHandler):
    """aiohttp's protocol for one connection, its refusals quoting nothing of the request."""

    __slots__ = ()

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """Returns aiohttp's error answer, its text the status alone (aiohttp's parser quotes
        the line it refused, which may hold a token), marked nosniff."""
        response = super().handle_error(request, status, exc, refusal_text(status))
        response.headers.update(NOSNIFF)
        return response


class Connections:
    """Makes aiohttp's protocol for each connection it serves (the relay's handler, managed by
    the runner's server, with the runner's handler options)."""

    def __init__(self, server: web.Server, options: dict[str, Any]) -> None:
        self.server = server
        self.options = options
        server.request_factory = _versions_noted(server.request_factory)
        server.request_handler = _checked(server.request_handler)

    def __call__(self) -> RelayRequestHandler:
        return RelayRequestHandler(self.server, loop=asyncio.get_running_loop(), **self.options)


def _versions_noted(make: RequestFactory) -> RequestFactory:
    """Returns make, but for a request of an HTTP version other than 1.x, which it makes as a
    1.1 request that closes the connection, the version received noted in it; and noting in
    a request that asks to switch protocols that it does."""

    def factory(
        message: RawRequestMessage,
        payload: StreamReader,
        protocol: RequestHandler,
        writer: AbstractStreamWriter,
        task: asyncio.Task[None],
    ) -> BaseRequest:
        version = message.version
        if version.major == 1:
            request = make(message, payload, protocol, writer, task)
            if message.upgrade:
                request[UPGRADE] = True
            return request
        message = message._replace(version=HttpVersion11, should_close=True)
        request = make(message, payload, protocol, writer, task)
        request[RECEIVED_VERSION] = version
        return request

    return factory


def _checked(handle: Handler) -> Handler:
    """Returns handle, but answering 505 to a version other than 1.x and 400 to a Host that is
    no uri-host[:port], before the application sees the request; and closing the connection
    after answering a request that asks to switch protocols."""

    async def checked(request: BaseRequest) -> web.StreamResponse:
        if RECEIVED_VERSION in request:
            return refusal(505)
        host = request.headers.get("Host")
        if host is not None and HOST.fullmatch(host) is None:
            return refusal(400)
        response = await handle(request)
        if UPGRADE in request:
            response.force_close()
        return response

    return checked
