"""A stranger's oversize and malformed requests through the shipped nginx and Apache sites,
sent while others play: each gets its own error, and nobody else sees a 502 or loses a move.

The relay used to answer such a request and close with its body unread; the web server,
still writing the body, saw a broken pipe, and nginx took the relay process out of its
upstream for everyone (`max_fails=1`: "no live upstreams")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.hosting.players import Run, check_logs, play_matches
from tests.hosting.stack import Apache, Nginx, Workers, make_pages
from tests.support.components import require_binary
from tests.support.redis_server import RedisServer, redis_binary
from tests.support.relay_process import quick_flags

pytestmark = pytest.mark.timeout(150)

MATCHES = 20

OVERSIZE = 61440
"""A body over the relay's --max-body (32 KiB) and under nginx's old client_max_body_size."""


def _post(extra_header: bytes, length: int) -> bytes:
    head = (
        b"POST /v1/seek HTTP/1.1\r\nHost: flood\r\nContent-Type: application/json\r\n"
        + extra_header
        + b"Content-Length: %d\r\n\r\n" % length
    )
    return head + b"x" * length


FLOODS = {
    "oversize body": (_post(b"", OVERSIZE), {413}),
    "control character in a header, body under the limit": (
        _post(b"X-Stranger: a\x01b\r\n", 30000),
        {400},
    ),
    "control character in a header, oversize body": (
        _post(b"X-Stranger: a\x01b\r\n", 65536),
        {400, 413},
    ),
}
"""What the stranger sends, and the statuses each may be answered with."""


async def _send(port: int, request: bytes) -> int:
    """Sends one request on a connection of its own; returns the answer's status (0: none)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        async with asyncio.timeout(10):
            await writer.drain()
            line = await reader.readline()
        return int(line.split()[1]) if line.startswith(b"HTTP/") else 0
    except (ConnectionError, TimeoutError):
        return 0
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def _flood(
    port: int, statuses: dict[str, list[int]], started: asyncio.Event, stop: asyncio.Event
) -> None:
    """Sends each kind of stranger's request ten times a second until `stop`."""
    while not stop.is_set():
        for name, (request, _) in FLOODS.items():
            statuses[name].append(await _send(port, request))
        started.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.1)


async def _play_while_flooded(url: str, port: int, game: str) -> tuple[Run, dict[str, list[int]]]:
    statuses: dict[str, list[int]] = {name: [] for name in FLOODS}
    started, stop = asyncio.Event(), asyncio.Event()
    flood = asyncio.create_task(_flood(port, statuses, started, stop))
    try:
        # The stranger starts first, so the matches are played under the flood throughout.
        async with asyncio.timeout(10):
            await started.wait()
        run = await play_matches(url, MATCHES, game)
    finally:
        stop.set()
        await flood
    return run, statuses


def _check_flood(statuses: dict[str, list[int]]) -> None:
    for name, (_, allowed) in FLOODS.items():
        assert statuses[name], name
        assert set(statuses[name]) <= allowed, (name, statuses[name])


def _statuses_in(log: Path) -> list[int]:
    return [int(line.split()[0]) for line in log.read_text().splitlines() if line]


@pytest.fixture
def pages() -> Iterator[Path]:
    folder = make_pages()
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


async def test_strangers_oversize_and_malformed_bodies_through_nginx_fail_no_one_else(
    pages: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sdk.transport")  # each retry, and why
    with (
        RedisServer(redis_binary()) as redis_server,
        Workers(redis_server.url, *quick_flags()) as workers,
        Nginx(require_binary("nginx", "nginx"), workers, pages) as nginx,
    ):
        async with (
            aiohttp.ClientSession() as session,
            session.post(nginx.url + "/v1/seek", data=b"{" * OVERSIZE) as answer,
        ):
            # nginx refuses it as the relay would, with the relay's own error.
            assert answer.status == 413
            assert (await answer.json())["error"]["code"] == "request/too_large"
        run, statuses = await _play_while_flooded(nginx.url, nginx.port, "flood-nginx")
        await check_logs(nginx.url, run, MATCHES)
        _check_flood(statuses)
        assert run.retries == 0, caplog.text + nginx.error_log()
        assert 502 not in _statuses_in(nginx.forwarded_log), nginx.error_log()
        assert "no live upstreams" not in nginx.error_log()


async def test_strangers_oversize_and_malformed_bodies_through_apache_fail_no_one_else(
    pages: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sdk.transport")  # each retry, and why
    binary = require_binary("apache2", "apache2")
    apache2ctl = require_binary("apache2ctl", "apache2")
    with (
        RedisServer(redis_binary()) as redis_server,
        Workers(redis_server.url, *quick_flags()) as workers,
    ):
        apache = Apache(binary, workers, pages)
        assert apache.check(apache2ctl).returncode == 0
        with apache:
            run, statuses = await _play_while_flooded(apache.url, apache.port, "flood-apache")
            await check_logs(apache.url, run, MATCHES)
            _check_flood(statuses)
            assert run.retries == 0, caplog.text + apache.error_log()
            assert 502 not in _statuses_in(apache.forwarded_log), apache.error_log()
            assert 503 not in _statuses_in(apache.forwarded_log), apache.error_log()
