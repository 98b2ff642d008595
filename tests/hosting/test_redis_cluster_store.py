"""A relay process on a real Redis Cluster: matches spread over every master, and play goes
on through resharding (ASK while a slot moves, MOVED after) with no error answered."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import aiohttp
import pytest
from redis.crc import key_slot

from relay.store.redis.keys import Layout
from tests.relay.wire import Seat, Wire
from tests.reliability.conftest import assert_log_clean
from tests.support.redis_cluster import ClusterNode, RedisCluster
from tests.support.relay_process import RelayProcess, quick_flags

pytestmark = pytest.mark.timeout(90)

LAYOUT = Layout("movewire:")


@pytest.fixture
def cluster() -> Iterator[RedisCluster]:
    """Returns a 3-master cluster of this test's own (its slots get moved)."""
    with RedisCluster(masters=3) as made:
        yield made


def _errorstat(cluster: RedisCluster, kind: str) -> int:
    """Returns how many times the masters answered an error of this kind (ASK, MOVED)."""
    total = 0
    for node in cluster.masters:
        found = node.info("errorstats").get(f"errorstat_{kind}", {})
        total += int(found.get("count", 0)) if isinstance(found, dict) else 0
    return total


async def _move(wire: Wire, seat: Seat, after: int, text: str) -> None:
    """Posts a move as a client does: again after a 503 (a slot in the middle of moving may
    be refused for a moment), never a 500."""
    for _ in range(20):
        status, body = await wire.post(seat, "moves", {"after": after, "move": text})
        if status != 503:
            break
        assert body["error"]["code"] == "server/unavailable", body
        await asyncio.sleep(0.2)
    assert (status, body) == (200, {"seq": after + 1}), body


async def test_matches_spread_over_every_master(cluster: RedisCluster) -> None:
    with RelayProcess(*quick_flags(), "--store", cluster.url) as relay:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            wire = Wire(session, relay.url)
            pairs = [await wire.pair("spread") for _ in range(30)]
        assert_log_clean(relay)
    ports = {cluster.master_of(LAYOUT.match(x.match)).port for x, _ in pairs}
    assert ports == {node.port for node in cluster.masters}


async def test_play_goes_on_while_slots_move(cluster: RedisCluster) -> None:
    with RelayProcess(*quick_flags(), "--store", cluster.url) as relay:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            wire = Wire(session, relay.url)
            pairs = [await wire.pair("reshard") for _ in range(6)]
            for x, o in pairs:
                await _move(wire, x, 1, "before")
                # o's relay process now follows the match's channel on its current master.
                assert [e["move"] for e in await wire.events(o.match, 1, o)] == ["before"]
            # Half-move each match's slot to another master: its keys answer ASK there.
            moved: list[tuple[str, ClusterNode]] = []
            for x, _ in pairs:
                key = LAYOUT.match(x.match)
                if key_slot(key.encode()) in {key_slot(k.encode()) for k, _ in moved}:
                    continue  # a match of the same shard: its slot is moving already
                source = cluster.master_of(key)
                target = next(node for node in cluster.masters if node is not source)
                await asyncio.to_thread(cluster.move_slot, key, target, finish=False)
                moved.append((key, target))
            for _, o in pairs:
                await _move(wire, o, 2, "while moving")
            assert _errorstat(cluster, "ASK") > 0
            # Finish the moves: the slots are the new masters' now (MOVED for a stale map),
            # and Redis ends the old subscriptions to the matches' channels.
            for key, target in moved:
                await asyncio.to_thread(cluster.move_slot, key, target)
            for x, o in pairs:
                held = asyncio.create_task(wire.events(o.match, 3, o, wait=10))
                await asyncio.sleep(0.3)
                sent = time.monotonic()
                await _move(wire, x, 3, "after")
                events = await held
                assert [e["move"] for e in events] == ["after"]
                # Woken by the channel on its new master, not by a re-read seconds later.
                assert time.monotonic() - sent < 2.0
            assert _errorstat(cluster, "MOVED") > 0
            for x, _ in pairs:
                log = await wire.events(x.match, 0, x)
                assert [e.get("move") for e in log[1:]] == ["before", "while moving", "after"]
        assert_log_clean(relay)
