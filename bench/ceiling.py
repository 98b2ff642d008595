"""The ceiling for one request: a bare aiohttp server answering a fixed response."""

from __future__ import annotations

import sys

from aiohttp import web

__all__ = ["main"]

BODY = b'{"events":[]}'


async def fixed(request: web.Request) -> web.Response:
    """Answers every request with the same small JSON body."""
    await request.read()
    return web.Response(body=BODY, headers={"Content-Type": "application/json"})


def main() -> None:
    """Serves the fixed answer on 127.0.0.1:PORT (argv[1]) with uvloop."""
    import uvloop

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fixed)
    web.run_app(
        app,
        host="127.0.0.1",
        port=int(sys.argv[1]),
        access_log=None,
        print=None,
        loop=uvloop.new_event_loop(),
    )


if __name__ == "__main__":
    main()
