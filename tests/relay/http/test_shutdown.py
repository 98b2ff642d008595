"""A relay process shutting down drops no connection the kernel had already queued for it."""

from __future__ import annotations

import asyncio
import socket
import tempfile
from pathlib import Path

from relay.http.serve import stop_listening

QUEUED = 5


class Answer(asyncio.Protocol):
    """Answers each connection's first bytes with one line, then closes it."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        assert isinstance(self.transport, asyncio.Transport)
        self.transport.write(b"answered " + data)
        self.transport.close()


async def queue_requests(path: str) -> tuple[asyncio.Server, list[socket.socket]]:
    """Starts a listener on path and queues QUEUED connections on it, each with a request
    written, before the loop has had a chance to accept any of them."""
    server = await asyncio.get_running_loop().create_unix_server(Answer, path, backlog=64)
    clients = []
    for index in range(QUEUED):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(path)  # queued by the kernel: the loop has not run since
        client.sendall(f"request {index}".encode())
        clients.append(client)
    return server, clients


async def read_all(clients: list[socket.socket]) -> list[bytes | str]:
    """Returns what each client reads, or the name of the error its read met."""

    def read(client: socket.socket) -> bytes | str:
        client.settimeout(5)
        try:
            return client.recv(100)
        except OSError as error:
            return type(error).__name__
        finally:
            client.close()

    return list(await asyncio.gather(*(asyncio.to_thread(read, c) for c in clients)))


async def test_closing_a_listener_at_once_resets_what_it_had_queued() -> None:
    # The hazard itself: behind nginx, each of these was a POST answered 502.
    with tempfile.TemporaryDirectory() as folder:
        server, clients = await queue_requests(str(Path(folder) / "relay.sock"))
        server.close()
        assert await read_all(clients) == ["ConnectionResetError"] * QUEUED


async def test_stop_listening_answers_what_was_queued_and_refuses_what_comes_after() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "relay.sock")
        server, clients = await queue_requests(path)
        await stop_listening(server, path)
        assert await read_all(clients) == [b"answered request %d" % i for i in range(QUEUED)]
        # The path is gone: a proxy's next connect fails at once and tries another process.
        late = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            late.connect(path)
            raise AssertionError("a connect after stop_listening was taken")
        except FileNotFoundError:
            pass
        finally:
            late.close()
        assert not server.is_serving()
