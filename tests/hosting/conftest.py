"""Fixtures of the hosting tests: a real redis-server and Redis stores on it."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from relay.redis_store import RedisStore
from relay.store import StoreSettings
from tests.support.redis_server import RedisServer, redis_binary

SETTINGS = StoreSettings(grace=10.0, keep=100.0, max_waiting=3)
"""Store settings of the store tests; they drive `now` by hand."""

_prefixes = itertools.count()

StoreMaker = Callable[..., RedisStore]
"""Makes a Redis store (like one more relay process) on the test's redis-server."""


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """Returns a redis-server of this test's own, with AOF, stopped after it."""
    with RedisServer(redis_binary(), aof=True) as server:
        yield server


@pytest.fixture
async def make_store(redis_server: RedisServer) -> AsyncIterator[StoreMaker]:
    """Returns a maker of Redis stores sharing one key prefix: like relay processes on one Redis."""
    prefix = f"hosting{next(_prefixes)}:"
    made: list[RedisStore] = []

    def make(url: str | None = None, **options: object) -> RedisStore:
        settings = options.pop("settings", SETTINGS)
        assert isinstance(settings, StoreSettings)
        store = RedisStore.from_url(
            url or redis_server.url,
            settings,
            prefix=prefix,
            **options,  # type: ignore[arg-type]
        )
        made.append(store)
        return store

    yield make
    for store in made:
        await store.close()
