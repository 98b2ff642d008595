"""The Redis Cluster and Sentinel fixtures are real: keys spread over masters, failover works.

A client is the judge: it finds the cluster from one node's URL, and after `kill -9` of a
master (or of the Sentinels' primary) it reads, from the promoted replica, what was written
and acknowledged by `WAIT 1` before."""

from __future__ import annotations

import pytest
import redis
import redis.asyncio as aredis
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.asyncio.sentinel import Sentinel

from tests.support.redis_cluster import MASTER_NAME, ClusterNode, RedisCluster, RedisSentinel


def _write_durably(node: ClusterNode, key: str, value: str) -> None:
    """Writes on the node, then waits until one replica has it (WAIT on the same connection)."""
    with node.client().pipeline(transaction=False) as pipe:
        pipe.set(key, value)
        pipe.execute_command("WAIT", 1, 2000)  # type: ignore[no-untyped-call]
        stored, replicas = pipe.execute()
    assert stored and replicas == 1, (key, replicas)


@pytest.mark.timeout(30)
async def test_keys_with_different_hash_tags_land_on_every_master(
    redis_cluster: RedisCluster, cluster_prefix: str
) -> None:
    keys = [f"{cluster_prefix}{{match{i}}}:log" for i in range(30)]
    client = AsyncRedisCluster.from_url(redis_cluster.url)  # one node's URL: it finds the rest
    try:
        for key in keys:
            await client.set(key, key)
        assert [await client.get(key) for key in keys] == [key.encode() for key in keys]
    finally:
        await client.aclose()
    masters = redis_cluster.masters
    assert len(masters) == 3 and redis_cluster.is_ok()
    owners = {key: redis_cluster.master_of(key) for key in keys}
    assert {node.port for node in owners.values()} == {node.port for node in masters}
    for key, node in owners.items():  # each key is where the slot map says, and nowhere else
        assert node.client().get(key) == key
        for other in masters:
            if other is not node:
                with pytest.raises(redis.exceptions.MovedError):
                    other.client().get(key)


@pytest.mark.timeout(30)
async def test_a_client_follows_a_slot_half_moved_then_moved(
    redis_cluster: RedisCluster, cluster_prefix: str
) -> None:
    key = f"{cluster_prefix}{{moving}}:log"
    client = AsyncRedisCluster.from_url(redis_cluster.url)
    try:
        await client.set(key, "before")
        source = redis_cluster.master_of(key)
        target = next(node for node in redis_cluster.masters if node is not source)
        redis_cluster.move_slot(key, target, finish=False)
        with pytest.raises(redis.exceptions.AskError):
            source.client().get(key)
        assert await client.get(key) == b"before"  # ASK, followed
        redis_cluster.move_slot(key, target)
        assert redis_cluster.master_of(key) is target
        with pytest.raises(redis.exceptions.MovedError):
            source.client().get(key)
        assert await client.get(key) == b"before"  # MOVED, followed
        await client.set(key, "after")
        assert target.client().get(key) == "after"
    finally:
        await client.aclose()
        redis_cluster.move_slot(key, source)  # the shared cluster as it was


@pytest.mark.timeout(30)
async def test_a_killed_master_is_replaced_by_its_replica_with_what_was_written(
    redis_cluster_with_replicas: RedisCluster,
) -> None:
    cluster = redis_cluster_with_replicas
    assert len(cluster.masters) == 3 and len(cluster.nodes) == 6
    keys = [f"{{match{i}}}:log" for i in range(12)]
    for key in keys:
        _write_durably(cluster.master_of(key), key, f"before {key}")
    client = AsyncRedisCluster.from_url(cluster.url)
    try:
        assert await client.get(keys[0]) == f"before {keys[0]}".encode()
        victim = cluster.masters[0]
        lost = [key for key in keys if cluster.master_of(key) is victim]
        assert lost, "some keys were on the master killed"
        promoted = cluster.kill_master(0)
        assert not victim.alive and promoted.role() == "master"
        assert cluster.is_ok() and len(cluster.masters) == 3
        assert {cluster.master_of(key).port for key in lost} == {promoted.port}
        # The client made before the failover follows it: every key is read back.
        for key in keys:
            assert await client.get(key) == f"before {key}".encode()
        await client.set(lost[0], "after")
        assert promoted.client().get(lost[0]) == "after"
    finally:
        await client.aclose()


@pytest.mark.timeout(30)
async def test_sentinels_hand_the_client_the_promoted_replica(
    redis_sentinel: RedisSentinel,
) -> None:
    old = redis_sentinel.primary
    sentinel = Sentinel(redis_sentinel.sentinel_addresses, socket_timeout=1)  # type: ignore[no-untyped-call]
    primary: aredis.Redis = sentinel.master_for(MASTER_NAME, socket_timeout=1)
    try:
        assert await sentinel.discover_master(MASTER_NAME) == ("127.0.0.1", old.port)
        async with primary.pipeline(transaction=False) as pipe:
            pipe.set("match:1", "before")
            pipe.execute_command("WAIT", 1, 2000)
            assert await pipe.execute() == [True, 1]
        new = redis_sentinel.kill_primary()
        assert new is not old and not old.alive
        assert await sentinel.discover_master(MASTER_NAME) == ("127.0.0.1", new.port)
        assert await primary.get("match:1") == b"before"
        await primary.set("match:1", "after")
        assert new.client().get("match:1") == "after"
    finally:
        await primary.aclose()
        for client in sentinel.sentinels:
            await client.aclose()
