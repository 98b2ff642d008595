"""The aiohttp handler of every route of the table: reads the request into a Call for the Api."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiohttp import web

from relay.api.calls import Call, Reply
from relay.api.routes import Route
from relay.core.errors import RelayError
from relay.http.state import API

__all__ = ["handler"]

Handler = Callable[[web.Request], Awaitable[web.Response]]


async def _body(request: web.Request, timeout: float) -> bytes:
    """Reads the body, which must arrive within --request-timeout, as on the front (the
    bodies aiohttp reads are those handed over: chunked, after Expect, HTTP/1.0)."""
    try:
        async with asyncio.timeout(timeout):
            return await request.read()
    except TimeoutError:
        raise RelayError("request/timeout") from None


def handler(route: Route) -> Handler:
    """Returns the aiohttp handler of a route: one Api.handle call per request."""

    async def handle(request: web.Request) -> web.Response:
        api = request.app[API]
        body = await _body(request, api.config.request_timeout) if request.can_read_body else b""
        call = Call(
            route,
            request.match_info.get("match") or request.match_info.get("game", ""),
            request.remote or "",
            request.headers.get("Authorization"),
            request.content_type,
            request.query,
            body,
        )
        answered: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()

        def answer(reply: Reply | None, error: BaseException | None) -> None:
            if answered.done():
                return
            if error is not None:
                answered.set_exception(error)
            else:
                assert reply is not None
                answered.set_result(reply)

        pending = api.handle(call, answer)
        try:
            status, text = await answered
        except asyncio.CancelledError:
            if pending is not None:
                pending.cancel()
            raise
        response = web.Response(
            body=text, status=status, headers={"Content-Type": route.content_type}
        )
        if api.lifecycle.closing:
            response.force_close()  # the next request goes elsewhere
        return response

    handle.__doc__ = f"{route.method} {route.path}: {route.summary}"
    return handle
