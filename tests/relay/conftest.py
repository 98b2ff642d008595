"""Fixtures of the relay tests: a store of each kind, and an in-process relay client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from relay import MemoryStore, Store, StoreSettings

SETTINGS = StoreSettings(grace=10.0, keep=100.0, max_waiting=5, max_events=40, lobby_size=3)
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
