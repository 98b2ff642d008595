"""Failover with nothing lost: 100 matches of SDK hosts play through a relay process on a
Redis Cluster whose masters each have a replica, or on a primary and its replica watched by
three Sentinels, and a master (the primary) is killed with kill -9 mid-run. Its replica takes
over; whatever the dead master acknowledged but had not yet replicated is gone from the
log, and the SDKs heal it by posting their last move again (docs/reliability.md#failover).
Every match must finish, and each seat must receive every move exactly once, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest

from relay.store.redis.store import sentinel_url
from tests.hosting.players import Run, check_logs, play_matches
from tests.reliability.conftest import assert_log_clean
from tests.support.redis_cluster import MASTER_NAME, ClusterNode, RedisCluster, RedisSentinel
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(150)

MATCHES = 100


@pytest.fixture
def cluster() -> Iterator[RedisCluster]:
    """Returns a cluster of 3 masters with a replica each, of this test's own."""
    with RedisCluster(masters=3, replicas=1) as made:
        yield made


async def _play_through(store: str, fail: Callable[[], ClusterNode]) -> None:
    """Plays MATCHES matches through a relay on the store, calls fail() mid-run, and checks
    every match finished with every move delivered once, in order."""
    with RelayProcess(*quick_flags(grace=60), "--store", store) as relay:
        run = Run(milestone=MATCHES * 2)
        playing = asyncio.create_task(play_matches(relay.url, MATCHES, "failover", run=run))
        async with asyncio.timeout(60):
            await run.reached.wait()
        assert not playing.done(), "the run ended before the fault"
        promoted = await asyncio.to_thread(fail)
        assert promoted.role() == "master"
        await playing
        moves = await check_logs(relay.url, run, MATCHES)
        assert moves > MATCHES * 4
        assert_log_clean(relay)


async def test_a_cluster_master_killed_mid_run_loses_no_move(cluster: RedisCluster) -> None:
    await _play_through(cluster.url, lambda: cluster.kill_master(0))


async def test_a_primary_under_sentinels_killed_mid_run_loses_no_move(
    redis_sentinel: RedisSentinel,
) -> None:
    sentinels = ",".join(f"{host}:{port}" for host, port in redis_sentinel.sentinel_addresses)
    await _play_through(f"redis+sentinel://{sentinels}/{MASTER_NAME}", redis_sentinel.kill_primary)


def test_sentinel_urls_are_read_or_refused_clearly() -> None:
    assert sentinel_url("redis+sentinel://a:1,b:2/main?db=3") == (
        [("a", 1), ("b", 2)],
        "main",
        {"db": 3},
    )
    assert sentinel_url("redis+sentinel://:s%40cret@a:1/main")[2] == {"password": "s@cret"}
    for bad in ("redis+sentinel://a:1", "redis+sentinel://a/main", "redis://a:1/main"):
        with pytest.raises(ValueError, match=r"redis\+sentinel://|host:port"):
            sentinel_url(bad)
