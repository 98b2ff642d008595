"""A TCP proxy on loopback whose link can be cut silently: once cut, nothing passes either way
and no connection is closed (no FIN, no RST), as when a player's network dies under it."""

from __future__ import annotations

import asyncio
import threading
from types import TracebackType

__all__ = ["CutProxy"]


class CutProxy:
    """Forwards 127.0.0.1:port to a relay's port, in a thread of its own (usable from sync
    tests and async ones alike), until cut() (the link goes dead) or close()."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._dead = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        """Returns the proxy's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> CutProxy:
        """Starts forwarding."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def cut(self) -> None:
        """Cuts the link: from now on nothing passes, and every connection stays open."""
        self._loop.call_soon_threadsafe(self._dead.set)

    def close(self) -> None:
        """Closes every connection and stops the proxy."""
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> CutProxy:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _close(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.transport.abort()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()
        await asyncio.sleep(0)  # the aborted transports' callbacks run before the loop stops

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.append(client_w)
        try:
            if self._dead.is_set():
                await asyncio.Event().wait()  # a connection made after the cut: never answered
            try:
                relay_r, relay_w = await asyncio.open_connection("127.0.0.1", self.upstream_port)
            except OSError:
                client_w.transport.abort()
                return
            self._writers.append(relay_w)
            await asyncio.gather(self._pipe(client_r, relay_w), self._pipe(relay_r, client_w))
        except asyncio.CancelledError:
            return  # closed

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copies bytes one way until the connection ends, or forever once the link is cut."""
        while not self._dead.is_set():
            try:
                data = await reader.read(65536)
            except OSError:
                data = b""
            if self._dead.is_set():
                break  # dropped, as a dead network drops it
            if not data:
                writer.transport.abort()
                return
            writer.write(data)
        await asyncio.Event().wait()  # cut: this side neither ends nor passes anything
