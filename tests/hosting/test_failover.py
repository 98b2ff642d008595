"""Failover with nothing lost: 100 matches of SDK hosts play through relay processes on a
Redis Cluster whose masters each have a replica, and one master is killed with kill -9
mid-run. Its replica takes over; whatever the dead master acknowledged but had not yet
replicated is gone from the log, and the SDKs heal it by posting their last move again
(docs/reliability.md#failover). Every match must finish, and each seat must receive every
move exactly once, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.hosting.players import Run, check_logs, play_matches
from tests.reliability.conftest import assert_log_clean
from tests.support.redis_cluster import RedisCluster
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(150)

MATCHES = 100


@pytest.fixture
def cluster() -> Iterator[RedisCluster]:
    """Returns a cluster of 3 masters with a replica each, of this test's own."""
    with RedisCluster(masters=3, replicas=1) as made:
        yield made


async def test_a_master_killed_mid_run_loses_no_move(cluster: RedisCluster) -> None:
    with RelayProcess(*quick_flags(grace=60), "--store", cluster.url) as relay:
        run = Run(milestone=MATCHES * 2)
        playing = asyncio.create_task(play_matches(relay.url, MATCHES, "failover", run=run))
        async with asyncio.timeout(60):
            await run.reached.wait()
        assert not playing.done(), "the run ended before the fault"
        promoted = await asyncio.to_thread(cluster.kill_master, 0)
        assert promoted.role() == "master"
        await playing
        moves = await check_logs(relay.url, run, MATCHES)
        assert moves > MATCHES * 4
        assert_log_clean(relay)
