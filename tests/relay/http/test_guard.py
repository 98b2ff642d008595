"""The Guard between a socket and aiohttp's protocol: what aiohttp does to its transport
reaches the socket, and the socket's end always reaches aiohttp."""

from __future__ import annotations

import asyncio
import contextlib

from relay.http.guard import Guard, Reclaim


class _Inner(asyncio.Protocol):
    """Stands for aiohttp's protocol: aborts its transport at the first read."""

    def __init__(self) -> None:
        self.transport: asyncio.BaseTransport | None = None
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        assert isinstance(self.transport, asyncio.Transport)
        self.transport.abort()
        assert self.transport.is_closing()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(exc)


async def test_a_connection_aborted_by_aiohttp_is_reported_lost_to_it() -> None:
    inners: list[_Inner] = []

    def made() -> Guard:
        inners.append(_Inner())
        return Guard(inners[-1], 65536, Reclaim())

    loop = asyncio.get_running_loop()
    server = await loop.create_server(made, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        async with asyncio.timeout(5):
            await inners[0].lost  # aiohttp would otherwise keep its task for the connection
            with contextlib.suppress(ConnectionError):  # the abort resets the connection
                assert await reader.read() == b""
        writer.close()
    finally:
        server.close()
        await server.wait_closed()
