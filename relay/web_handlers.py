"""The aiohttp handlers of protocol v1: each hands its request's parts to the Api."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiohttp import web

from relay.api import Reply
from relay.errors import RelayError
from relay.web_state import API

__all__ = [
    "cancel",
    "confirm",
    "events",
    "healthz",
    "match_info",
    "metrics",
    "move",
    "pass_turn",
    "resign",
    "seek",
]

JSON = {"Content-Type": "application/json"}

SeatWrite = Callable[[str, str, str | None, str, bytes], Awaitable[Reply]]
"""An Api call of a seat's write with a JSON body: client, match, authorization, type, body."""


def _answer(reply: Reply) -> web.Response:
    return web.Response(body=reply[1], status=reply[0], headers=JSON)


async def _body(request: web.Request) -> bytes:
    """Reads the body, which must arrive within --request-timeout, as on the front (the
    bodies aiohttp reads are those handed over: chunked, after Expect, HTTP/1.0)."""
    try:
        async with asyncio.timeout(request.app[API].config.request_timeout):
            return await request.read()
    except TimeoutError:
        raise RelayError("request/timeout") from None


async def seek(request: web.Request) -> web.Response:
    """POST /v1/seek."""
    raw = await _body(request)
    return _answer(await request.app[API].seek(request.remote or "", request.content_type, raw))


async def events(request: web.Request) -> web.Response:
    """GET /v1/matches/{match}/events."""
    return _answer(
        await request.app[API].events(
            request.remote or "",
            request.match_info["match"],
            request.headers.get("Authorization"),
            request.query,
        )
    )


async def move(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/moves."""
    raw = await _body(request)
    return _answer(
        await request.app[API].move(
            request.remote or "",
            request.match_info["match"],
            request.headers.get("Authorization"),
            request.query,
            request.content_type,
            raw,
        )
    )


async def _seat_write(request: web.Request, call: SeatWrite) -> web.Response:
    """Hands a seat's write with a JSON body (pass, confirm, resign) to its Api call."""
    raw = await _body(request)
    return _answer(
        await call(
            request.remote or "",
            request.match_info["match"],
            request.headers.get("Authorization"),
            request.content_type,
            raw,
        )
    )


async def pass_turn(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/pass."""
    return await _seat_write(request, request.app[API].pass_turn)


async def confirm(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/confirm."""
    return await _seat_write(request, request.app[API].confirm)


async def resign(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/resign."""
    return await _seat_write(request, request.app[API].resign)


async def cancel(request: web.Request) -> web.Response:
    """POST /v1/matches/{match}/cancel."""
    return _answer(
        await request.app[API].cancel(
            request.remote or "", request.match_info["match"], request.headers.get("Authorization")
        )
    )


async def match_info(request: web.Request) -> web.Response:
    """GET /v1/matches/{match}."""
    return _answer(
        await request.app[API].match_info(request.remote or "", request.match_info["match"])
    )


async def healthz(request: web.Request) -> web.Response:
    """GET /healthz."""
    return _answer(await request.app[API].healthz())


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: Prometheus text format."""
    body = await request.app[API].metrics_text()
    return web.Response(body=body, headers={"Content-Type": "text/plain; version=0.0.4"})
