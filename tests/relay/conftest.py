"""Fixtures of the relay tests: a store of each kind, and clients of a relay over each HTTP
layer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import aiohttp
import pytest
from pytest_aiohttp import AiohttpClient

from relay import Config, MemoryStore, Store, StoreSettings, create_app
from relay.core.rated import RatingRules

SETTINGS = StoreSettings(
    grace=10.0,
    keep=100.0,
    max_waiting=5,
    max_events=40,
    max_log_bytes=600,
    lobby_size=3,
    ratings=RatingRules(unrefereed=True, pair_daily=1000, board_opponents=1, board_age=0.0),
)
"""Store settings of the conformance suite; tests drive `now` by hand, so no test waits them."""

STORE_KINDS = ["memory", "redis", "cluster"]
"""Every store implementation, and the Redis store on a real 3-master Redis Cluster; the
conformance suite runs unchanged against each."""


@pytest.fixture(params=STORE_KINDS)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """Returns an empty store of each kind."""
    made: Store
    if request.param == "memory":
        made = MemoryStore(SETTINGS)
    elif request.param == "redis":
        from tests.support.redis_server import fresh_redis_store

        made = await fresh_redis_store(request, SETTINGS)
    else:
        from tests.support.redis_cluster import fresh_cluster_store

        made = await fresh_cluster_store(request, SETTINGS)
    try:
        yield made
    finally:
        await made.close()


FLAGS = {
    "hold": "--hold",
    "max_body": "--max-body",
    "max_move": "--max-move",
    "seeks_per_minute": "--seeks-per-minute",
    "polls_per_seat": "--polls-per-seat",
    "max_waiting": "--max-waiting",
    "max_events": "--max-events",
    "requests_per_second": "--requests-per-second",
}
"""The relay's command-line flag of each Config option the HTTP tests set."""

Make = Callable[..., Awaitable[Any]]
"""Makes a client of a relay with the given Config options (see make)."""


@pytest.fixture(params=["app", "process", "compiled"])
async def make(
    request: pytest.FixtureRequest, aiohttp_client: AiohttpClient
) -> AsyncIterator[Make]:
    """Returns a maker of clients of a relay with the given settings, over each HTTP layer:
    in process, a relay process from the sources, and one as the wheel installs it."""
    from tests.support.relay_process import RelayProcess

    started: list[RelayProcess] = []
    sessions: list[aiohttp.ClientSession] = []

    async def made(**options: Any) -> Any:
        options.setdefault("hold", 2.0)
        options.setdefault("requests_per_second", 100000.0)
        if request.param == "app":
            store = StoreSettings(
                max_waiting=options.pop("max_waiting", 1000),
                max_events=options.pop("max_events", 10_000),
            )
            config = Config(store=store, **options)
            return await aiohttp_client(create_app(config))
        flags = [item for key, value in options.items() for item in (FLAGS[key], str(value))]
        installed = request.getfixturevalue("installed") if request.param == "compiled" else None
        relay = RelayProcess(*flags, "--grace", "30", installed=installed).start()
        started.append(relay)
        session = aiohttp.ClientSession(relay.url, timeout=aiohttp.ClientTimeout(total=10))
        sessions.append(session)
        return session

    yield made
    for session in sessions:
        await session.close()
    for relay in started:
        relay.stop()


@pytest.fixture(scope="module")
def shared_relays() -> Iterator[dict[str, Any]]:
    """The relay processes a module's refusal tests share, one per layer (see refusing),
    stopped when the module is done."""
    started: dict[str, Any] = {}
    yield started
    for relay in started.values():
        relay.stop()


@pytest.fixture(params=["app", "process", "compiled"])
async def refusing(
    request: pytest.FixtureRequest, aiohttp_client: AiohttpClient, shared_relays: dict[str, Any]
) -> AsyncIterator[Any]:
    """Returns a client of a relay with the default settings over each HTTP layer, as make()
    does, for a test that leaves no seek waiting (it pairs every seek it makes, in a room of
    its own or not, or is refused): the module's such tests share one relay process per
    layer instead of starting one each (a start costs about 0.4 s of CPU)."""
    from tests.support.relay_process import RelayProcess

    if request.param == "app":
        store = StoreSettings(max_waiting=1000, max_events=10_000)
        config = Config(store=store, hold=2.0, requests_per_second=100000.0)
        yield await aiohttp_client(create_app(config))
        return
    relay = shared_relays.get(request.param)
    if relay is None:
        installed = request.getfixturevalue("installed") if request.param == "compiled" else None
        flags = ("--hold", "2.0", "--requests-per-second", "100000", "--grace", "30")
        relay = RelayProcess(*flags, "--seeks-per-minute", "100000", installed=installed)
        shared_relays[request.param] = relay.start()
    session = aiohttp.ClientSession(relay.url, timeout=aiohttp.ClientTimeout(total=10))
    try:
        yield session
    finally:
        await session.close()
