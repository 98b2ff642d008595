"""The relay's aiohttp application: routes, error answers and background work."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from relay.api.endpoints import Api, error_reply, retry_after_header
from relay.api.metrics import RelayMetrics
from relay.api.routes import ROUTES
from relay.config import Config
from relay.core.errors import CODES, RelayError
from relay.core.referee import Referee
from relay.http.handlers import handler as route_handler
from relay.http.pages import add_offline_files, add_pages, page_folders
from relay.http.proxy import behind_proxy
from relay.http.push import push_ctx
from relay.http.server import NOSNIFF
from relay.http.state import API, CONFIG, METRICS, STORE
from relay.store.base import Store
from relay.store.open import open_store
from relay.webhook.sender import HookSettings, Webhook

__all__ = ["BadRequests", "create_app"]

log = logging.getLogger("relay")

_HTTP_CODES = {404: "route/not_found", 405: "route/method", 413: "request/too_large"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadRequests(logging.Filter):
    """Logs a malformed request that aiohttp answered 400 as one INFO line, not as an ERROR
    with a traceback: it is the client's fault, which a relay facing the internet sees often
    (add it to the 'aiohttp.server' logger)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError) and 400 <= (exc.code or 0) < 500:
            record.levelno, record.levelname = logging.INFO, "INFO"
            # The exception's text may quote the request's headers, tokens among them.
            record.msg = "malformed request from %s refused with %s (%s)"
            record.args = (*(record.args or ()), exc.code, type(exc).__name__)
            record.exc_info = record.exc_text = None
        return True


def error_response(error: RelayError) -> web.Response:
    """Returns the JSON answer for an error: {"error": {"code": ..., "message": ...}}."""
    headers = {"Content-Type": "application/json"}
    if error.retry_after is not None:
        headers["Retry-After"] = retry_after_header(error.retry_after)
    status, body = error_reply(error)
    return web.Response(body=body, status=status, headers=headers)


@web.middleware
async def errors_as_json(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turns every failure into a documented JSON error; logs the unexpected ones."""
    try:
        return await handler(request)
    except RelayError as error:
        request.app[METRICS].errors[error.code] += 1
        if error.code == "request/timeout":
            return await _answer_and_close(request, error_response(error))
        return error_response(error)
    except web.HTTPException as exc:
        code = _HTTP_CODES.get(exc.status)
        if code is None:
            raise
        message = CODES[code][1]
        if exc.status == 413:
            message = f"The body is larger than {request.app[CONFIG].max_body} bytes."
        request.app[METRICS].errors[code] += 1
        return error_response(RelayError(code, message))
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception:
        log.exception("unexpected error on %s %s", request.method, request.path)
        request.app[METRICS].errors["server/internal"] += 1
        return error_response(RelayError("server/internal"))


async def _answer_and_close(request: web.Request, response: web.Response) -> web.Response:
    """Sends the answer, then closes the connection without waiting for the rest of a body
    too slow to arrive (aiohttp would otherwise linger, reading it, for ten seconds more)."""
    response.force_close()
    await response.prepare(request)
    await response.write_eof()
    request.protocol.force_close()
    return response


def create_app(
    config: Config | None = None,
    store: Store | None = None,
    referees: Mapping[str, Referee] | None = None,
) -> web.Application:
    """Returns the relay application, on store, else on the store config names (by default
    the memory store), running the referees given, by game name (relay.api.verdicts
    pick_referees makes them from config.referee and the installed games')."""
    config = config or Config()
    app = web.Application(middlewares=[errors_as_json], client_max_size=config.max_body)
    app[CONFIG] = config
    app[STORE] = store if store is not None else open_store(config.store_url, config.store)
    app[METRICS] = RelayMetrics()
    app[API] = Api(config, app[STORE], app[METRICS], referees)
    for route in ROUTES:
        handle = route_handler(route)
        if route.method == "GET":  # HEAD too, as aiohttp serves it
            app.router.add_get(route.path, handle, name=route.endpoint)
        else:
            app.router.add_route(route.method, route.path, handle, name=route.endpoint)
    if config.pages:
        pages = add_pages(app)
        for folder, _ in page_folders(config.games, config.pages_dirs):
            pages |= add_pages(app, folder)
        add_offline_files(app, pages)
    app.cleanup_ctx.append(_reaper)
    if config.webhook_url:
        app.cleanup_ctx.append(_webhook)  # stopped before the reaper closes the store
    if config.push_key:
        app.cleanup_ctx.append(push_ctx)  # after the webhook's: it tells both
    app.on_shutdown.append(_answer_held_polls)
    app.on_response_prepare.append(_nosniff)
    served = behind_proxy(app, config)
    if served is not app:
        served[API] = app[API]
        served.on_response_prepare.append(_nosniff)
    return served


async def _nosniff(request: web.Request, response: web.StreamResponse) -> None:
    """Marks every answer nosniff: a browser takes it for its Content-Type, never for markup."""
    response.headers.update(NOSNIFF)


async def _reaper(app: web.Application) -> AsyncIterator[None]:
    """Runs the store's housekeeping: abandonment, dropped seeks, expiry."""
    store = app[STORE]
    every = min(1.0, app[CONFIG].store.grace / 4)

    async def loop() -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await store.matches.reap(time.time())
            except RelayError as error:
                log.warning("housekeeping skipped: %s", error)
            except Exception:
                log.exception("housekeeping failed")

    task = asyncio.create_task(loop())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await store.close()


async def _webhook(app: web.Application) -> AsyncIterator[None]:
    """Sends your-turn notices of the store's correspondence matches to the webhook."""
    config, store = app[CONFIG], app[STORE]
    settings = HookSettings(config.webhook_url, config.webhook_keys, config.webhook_every)
    sender = Webhook(settings, store.hooks.state(), app[METRICS].webhooks)
    await sender.start()
    store.hooks.turns = sender
    yield
    store.hooks.turns = None
    await sender.close()


async def _answer_held_polls(app: web.Application) -> None:
    """At shutdown, answers every held poll with what it has instead of cutting it."""
    app[API].lifecycle.closing = True
    await app[STORE].wake_all()
