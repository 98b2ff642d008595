"""A real webhook receiver for tests: an aiohttp server that checks each delivery's signature
with one secret (relay.webhook.sign.verify) and keeps what it got, run in this process
(`Receiver`) or as its own process
(`python -m tests.support.hook_receiver --port P --secret S [--delay D] [--status N]`).

`GET /deliveries` answers every delivery so far: its method, its id (webhook-id), its headers
(names in lowercase), its raw body as text, whether its signature verified, its body as JSON
(None when empty), and the time it arrived."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from typing import Any

import orjson
from aiohttp import web

from relay.webhook.sign import ID, verify

__all__ = ["Receiver"]


class Receiver:
    """Answers any request to /hook (after `delay` seconds, with the statuses in `statuses`
    first, then 200; a 3xx with `Location: location`) and records each one."""

    def __init__(
        self,
        secret: bytes,
        delay: float = 0.0,
        statuses: list[int] | None = None,
        location: str = "",
    ):
        self.secret = secret
        self.delay = delay
        self.statuses = list(statuses or [])
        self.location = location
        self.got: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.port = 0

    def app(self) -> web.Application:
        """Returns the receiver's application."""
        app = web.Application()
        app.router.add_route("*", "/hook", self.hook)
        app.router.add_get("/deliveries", self.deliveries)
        return app

    async def hook(self, request: web.Request) -> web.Response:
        """Records a delivery (any request), then answers it."""
        body = await request.read()
        self.got.append(
            {
                "method": request.method,
                "id": request.headers.get(ID),
                "headers": {name.lower(): value for name, value in request.headers.items()},
                "raw": body.decode(errors="replace"),
                "verified": verify(self.secret, request.headers, body),
                "body": orjson.loads(body) if body else None,
                "at": time.time(),
            }
        )
        self.arrived.set()
        if self.delay:
            await asyncio.sleep(self.delay)
        status = self.statuses.pop(0) if self.statuses else 200
        headers = {"Location": self.location} if 300 <= status < 400 else {}
        return web.Response(status=status, headers=headers)

    async def deliveries(self, request: web.Request) -> web.Response:
        """Answers every delivery so far."""
        return web.Response(body=orjson.dumps(self.got), content_type="application/json")

    async def start(self, port: int = 0) -> Receiver:
        """Listens on 127.0.0.1:port (a free one for 0)."""
        self.runner = web.AppRunner(self.app(), access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        self.port = server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        """Returns the URL deliveries are posted to."""
        return f"http://127.0.0.1:{self.port}/hook"

    async def stop(self) -> None:
        """Stops listening."""
        if self.runner is not None:
            await self.runner.cleanup()

    async def wait_for(self, count: int, timeout: float) -> list[dict[str, Any]]:
        """Returns the deliveries once there are count of them; fails after timeout."""
        deadline = time.monotonic() + timeout
        while len(self.got) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"{len(self.got)} deliveries of {count} after {timeout} s"
            self.arrived.clear()
            if len(self.got) < count:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.arrived.wait(), left)
        return self.got


async def _serve(port: int, secret: bytes, delay: float, statuses: list[int]) -> None:
    await Receiver(secret, delay, statuses).start(port)
    await asyncio.Event().wait()


def main() -> None:
    """Runs a receiver until it is stopped."""
    parser = argparse.ArgumentParser(prog="python -m tests.support.hook_receiver")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--status", type=int, action="append", default=[])
    a = parser.parse_args()
    asyncio.run(_serve(a.port, a.secret.encode(), a.delay, a.status))


if __name__ == "__main__":
    main()
