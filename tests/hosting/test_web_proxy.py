"""Behind a proxy: forwarded headers believed from trusted proxies only, and a path prefix."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from relay.__main__ import parse_args
from relay.config import Config
from relay.http.app import create_app

ClientMaker = Callable[[web.Application], Awaitable[TestClient[web.Request, web.Application]]]


async def probe(request: web.Request) -> web.Response:
    """Answers with the client address and scheme the relay sees."""
    return web.Response(text=f"{request.remote} {request.scheme}")


def app_with_probe(**options: object) -> web.Application:
    """Returns the relay app (no pages) with a /probe route showing who the client is."""
    app = create_app(Config(pages=False, access_log=False, **options))  # type: ignore[arg-type]
    app.router.add_get("/probe", probe)
    return app


async def seen(client: TestClient[web.Request, web.Application], **headers: str) -> str:
    async with client.get("/probe", headers=headers) as answer:
        assert answer.status == 200
        return await answer.text()


FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}


async def test_a_trusted_proxy_names_the_client_and_scheme(aiohttp_client: ClientMaker) -> None:
    client = await aiohttp_client(app_with_probe(trusted_proxies=("127.0.0.1",)))
    assert await seen(client, **FORWARDED) == "203.0.113.7 https"
    assert await seen(client) == "127.0.0.1 http"


async def test_anyone_else_cannot_claim_another_address(aiohttp_client: ClientMaker) -> None:
    for trusted in [(), ("10.0.0.0/8",), ("unix",)]:
        client = await aiohttp_client(app_with_probe(trusted_proxies=trusted))
        assert await seen(client, **FORWARDED) == "127.0.0.1 http", trusted


async def test_a_chain_of_trusted_proxies_is_walked_from_the_right(
    aiohttp_client: ClientMaker,
) -> None:
    client = await aiohttp_client(app_with_probe(trusted_proxies=("127.0.0.0/8", "10.0.0.0/8")))
    chain = {"X-Forwarded-For": "198.51.100.1, 203.0.113.7, 10.1.2.3"}
    assert await seen(client, **chain) == "203.0.113.7 http"


async def test_a_malformed_forwarded_header_is_a_json_400(aiohttp_client: ClientMaker) -> None:
    client = await aiohttp_client(app_with_probe(trusted_proxies=("127.0.0.1",)))
    async with client.get("/probe", headers={"X-Forwarded-For": "not an address"}) as answer:
        assert answer.status == 400
        assert (await answer.json())["error"]["code"] == "request/invalid"


async def seek_status(client: TestClient[web.Request, web.Application], path: str, ip: str) -> int:
    async with client.post(path, json={"game": "limit"}, headers={"X-Forwarded-For": ip}) as answer:
        return answer.status


async def test_seek_limit_counts_the_forwarded_client(aiohttp_client: ClientMaker) -> None:
    trusted = await aiohttp_client(
        app_with_probe(trusted_proxies=("127.0.0.1",), seeks_per_minute=1)
    )
    assert await seek_status(trusted, "/v1/seek", "203.0.113.7") == 201
    assert await seek_status(trusted, "/v1/seek", "203.0.113.7") == 429
    assert await seek_status(trusted, "/v1/seek", "203.0.113.8") == 201
    untrusted = await aiohttp_client(app_with_probe(seeks_per_minute=1))
    assert await seek_status(untrusted, "/v1/seek", "203.0.113.7") == 201
    assert await seek_status(untrusted, "/v1/seek", "203.0.113.8") == 429


@pytest.fixture
async def unix_relay() -> AsyncIterator[Callable[[tuple[str, ...]], Awaitable[str]]]:
    """Returns a starter of relays on a unix socket (as behind nginx); yields its path."""
    folder = Path(tempfile.mkdtemp(prefix="movewire-unix-"))
    runners: list[web.AppRunner] = []

    async def start(trusted: tuple[str, ...]) -> str:
        runner = web.AppRunner(app_with_probe(trusted_proxies=trusted))
        await runner.setup()
        path = str(folder / f"relay-{len(runners)}.sock")
        await web.UnixSite(runner, path).start()
        runners.append(runner)
        return path

    yield start
    for runner in runners:
        await runner.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


async def test_unix_socket_peers_are_trusted_only_when_told(
    unix_relay: Callable[[tuple[str, ...]], Awaitable[str]],
) -> None:
    for trusted, expected in [(("unix",), "203.0.113.7 https"), (("127.0.0.1",), " http")]:
        path = await unix_relay(trusted)
        async with (
            aiohttp.ClientSession(connector=aiohttp.UnixConnector(path)) as session,
            session.get("http://relay/probe", headers=FORWARDED) as answer,
        ):
            assert await answer.text() == expected


async def test_the_relay_answers_under_its_prefix_only(aiohttp_client: ClientMaker) -> None:
    config = Config(pages=False, access_log=False, prefix="/games", trusted_proxies=("127.0.0.1",))
    client = await aiohttp_client(create_app(config))
    async with client.get("/games/healthz") as answer:
        assert answer.status == 200
    async with client.post(
        "/games/v1/seek", json={"game": "prefixed"}, headers=FORWARDED
    ) as answer:
        assert answer.status == 201
        ticket = await answer.json()
    async with client.get(f"/games/v1/matches/{ticket['match']}/events?after=0&wait=0") as answer:
        assert answer.status == 200 and await answer.json() == {"events": []}
    for path in ("/v1/openapi.json", "/games/v1/nothing-here", "/gamesv1/seek"):
        async with client.get(path) as answer:
            assert answer.status == 404, path
            assert (await answer.json())["error"]["code"] == "route/not_found"


def test_bad_prefixes_and_proxies_are_refused() -> None:
    for options in [
        {"prefix": "games"},
        {"prefix": "/games/"},
        {"prefix": "/ga mes"},
        {"trusted_proxies": ("proxy.example",)},
        {"trusted_proxies": ("10.0.0.0/33",)},
    ]:
        with pytest.raises(ValueError):
            Config(**options)  # type: ignore[arg-type]


def test_command_line_reads_prefix_proxies_and_workers() -> None:
    config, unix = parse_args(
        [
            "--prefix",
            "/games/",
            "--trusted-proxy",
            "unix",
            "--trusted-proxy",
            "10.0.0.0/8",
            "--workers",
            "3",
            "--store",
            "redis://127.0.0.1:6379/0",
            "--unix",
            "/run/movewire/relay-{n}.sock",
        ]
    )
    assert (config.prefix, config.trusted_proxies, config.workers) == (
        "/games",
        ("unix", "10.0.0.0/8"),
        3,
    )
    assert unix == "/run/movewire/relay-{n}.sock"


def test_several_workers_need_a_shared_store(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--workers", "2"])
    assert "--workers needs a shared store" in capsys.readouterr().err
