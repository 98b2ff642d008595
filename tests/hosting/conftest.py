"""Fixtures of the hosting tests: redis-server and Redis stores on it; Redis Cluster; Sentinels."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from relay.core.model import StoreSettings
from relay.store.redis.store import RedisStore
from tests.support.redis_cluster import RedisCluster, RedisSentinel
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


_cluster_prefixes = itertools.count()


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[RedisCluster]:
    """Returns the 3-master Redis Cluster (no replicas) this session shares; see cluster_prefix."""
    with RedisCluster(masters=3, replicas=0) as cluster:
        yield cluster


@pytest.fixture
def cluster_prefix() -> str:
    """Returns a key prefix of this test's own on the shared cluster (like `fresh_redis_store`)."""
    return f"test{os.getpid()}-{next(_cluster_prefixes)}:"


@pytest.fixture
def redis_cluster_with_replicas() -> Iterator[RedisCluster]:
    """Returns a 3-master cluster with a replica each, of this test's own: kill_master() at will."""
    with RedisCluster(masters=3, replicas=1) as cluster:
        yield cluster


@pytest.fixture
def redis_sentinel() -> Iterator[RedisSentinel]:
    """Returns a primary, a replica and three Sentinels, of this test's own: kill_primary()."""
    with RedisSentinel() as sentinel:
        yield sentinel
