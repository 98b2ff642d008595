"""Serves the relay on its listening socket until SIGINT or SIGTERM: the lean front first,
aiohttp for everything else, and at the signal the shutdown that answers held polls and
finishes requests in progress before the store closes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import select
import signal
from collections.abc import Callable
from typing import Any

from aiohttp import web

from relay.config import Config
from relay.http.access import AccessLog
from relay.http.front import Front
from relay.http.front_state import SWEEP
from relay.http.server import Connections
from relay.http.state import API

__all__ = ["BACKLOG", "LINGER", "serve", "stop_listening"]

BACKLOG = 2048
"""Connections the kernel queues before the relay accepts them (bursts of players)."""

DRAIN = 100
"""Turns of the loop a process shutting down gives to accepting the connections already
queued (asyncio accepts up to BACKLOG of them in one turn)."""

LINGER = 3.0
"""Seconds a process shutting down keeps its trusted proxies' idle connections open (see
FrontState.linger): longer than the shipped sites' idle timeout for upstream connections (2 s)."""


async def serve(app: web.Application, config: Config, unix: str | None) -> None:
    """Serves until SIGINT or SIGTERM: the lean front first, aiohttp for everything else.

    At the signal it stops accepting, answers held polls, finishes requests in progress
    (at most hold + 5 s), then closes the store."""
    options: dict[str, Any] = {
        "access_log": logging.getLogger("relay.access") if config.access_log else None,
        "access_log_class": AccessLog,  # the front's line, credentials in a URL masked
        # Connections handed to aiohttp idle no longer than the front's own.
        "keepalive_timeout": config.keepalive_timeout,
        # A body left unread is not read on by aiohttp: the connection closes by the Guard's
        # bounded lingering close (relay/http/guard.py), as the front's own do.
        "lingering_time": 0,
    }
    runner = web.AppRunner(
        app,
        handle_signals=False,
        shutdown_timeout=config.hold + 5,
        handler_cancellation=True,
        **options,
    )
    await runner.setup()
    api = app[API]
    front = Front(api, config)
    assert runner.server is not None
    front.handoff = Connections(runner.server, options)
    loop = asyncio.get_running_loop()
    protocol: Callable[[], asyncio.BaseProtocol] = front.protocol
    if not config.front:
        protocol = front.aiohttp_protocol  # aiohttp answers everything itself
    server: asyncio.Server
    if unix:
        server = await loop.create_unix_server(protocol, unix, backlog=BACKLOG)
    else:
        server = await loop.create_server(
            protocol, config.host, config.port, backlog=BACKLOG, reuse_address=True
        )
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP)
            front.sweep()

    sweeper = asyncio.create_task(sweep())
    try:
        await stop.wait()
    finally:
        api.lifecycle.closing = True  # what the queue still holds is answered and closed
        await stop_listening(server, unix)
        await api.store.wake_all()
        await front.linger(LINGER)
        front.close_idle()
        await front.drain(config.hold + 5)
        sweeper.cancel()
        await runner.cleanup()


async def stop_listening(server: asyncio.Server, unix: str | None) -> None:
    """Stops taking connections without dropping one the kernel has already queued.

    Closing a listener resets every connection still in its queue, and a proxy that had
    written a POST on one answers 502 (it never resends a POST). So a unix socket's path is
    removed first (a proxy's next connect fails at once and goes to another process), the
    connections already queued are accepted (in at most DRAIN turns of the loop), and only
    then does the listener close. A TCP port has no path to remove: its queue is drained
    the same way."""
    if unix:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(unix)
    for _ in range(DRAIN):
        if not any(_queued(sock) for sock in server.sockets):
            break
        await asyncio.sleep(0)
    # asyncio makes the transport of a connection it accepted one turn of the loop later, and
    # refuses to if the server has closed meanwhile: two turns before it closes.
    for _ in range(2):
        await asyncio.sleep(0)
    server.close()


def _queued(sock: Any) -> bool:
    """Returns whether a listening socket has a connection waiting to be accepted."""
    readable, _, _ = select.select([sock.fileno()], [], [], 0)
    return bool(readable)
