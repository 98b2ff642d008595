"""aiohttp's side of a connection as the relay runs it: refusals that quote nothing of the
request, and the checks aiohttp's parser leaves to the server.

aiohttp answers a request its parser refuses with the parser's message, which quotes the
offending line (a token in an Authorization header among them): `RelayRequestHandler` answers
such a refusal with its status alone. `Connections` makes that handler for each connection
aiohttp serves, in the place of aiohttp's own, for the runner's server."""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

__all__ = ["NOSNIFF", "Connections", "RelayRequestHandler", "refusal", "refusal_text"]

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

    def __call__(self) -> RelayRequestHandler:
        return RelayRequestHandler(self.server, loop=asyncio.get_running_loop(), **self.options)
