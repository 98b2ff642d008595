"""The Redis store's layout: a match's keys in one slot, shards spread over the slot space,
a move heard only by the processes waiting on its match, and a hung Redis given up."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import orjson
import pytest
import redis.asyncio as aioredis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.model import ID_FIRST, Action, Status, hash_token, new_match_id, new_token
from relay.store.redis import keys as redis_keys
from tests.hosting.conftest import StoreMaker
from tests.relay.store.calls import start
from tests.support.redis_server import RedisServer, subscribers, until_subscribers
from tests.support.waits import waited

pytestmark = pytest.mark.timeout(60)


def test_each_shard_tag_lies_in_its_own_share_of_the_slots() -> None:
    width = REDIS_CLUSTER_HASH_SLOTS // redis_keys.SHARDS
    slots = [key_slot(tag.encode()) for tag in redis_keys.TAGS]
    assert [slot // width for slot in slots] == list(range(redis_keys.SHARDS))
    # Random ids fall in every shard.
    shards = {redis_keys.shard_of(redis_keys.new_id()) for _ in range(2000)}
    assert shards == set(range(redis_keys.SHARDS))
    assert redis_keys.shard_of(redis_keys.new_id(17)) == 17


def test_match_ids_never_begin_with_a_dash() -> None:
    firsts = {new_match_id()[0] for _ in range(5000)}
    assert firsts == set(ID_FIRST) and "-" not in firsts  # `--replay ID` is never an option
    assert all(len(new_match_id()) == 16 for _ in range(100))


def test_a_prefix_with_braces_is_refused() -> None:
    with pytest.raises(ValueError, match="braces"):
        redis_keys.Layout("movewire{x}:")


async def test_every_key_of_a_match_is_in_one_slot(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    t = time.time()
    a = await store.matches.seek("slots", "1", None, t)
    b = await store.matches.seek("slots", "1", None, t)
    await start(store, a, at=t)
    await store.matches.act(b.match, b.token, Action("resign"), t)
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        keys = [key async for key in client.scan_iter(match=f"{store.prefix}*{a.match}")]
    finally:
        await client.aclose()
    assert len(keys) == 2  # the match's hash (with what made each event) and its log
    layout = redis_keys.Layout(store.prefix)
    slots = {key_slot(key) for key in keys}
    slots |= {key_slot(layout.channel(a.match, seq).encode()) for seq in (1, 2)}
    slots |= {key_slot(key.encode()) for key in layout.shard(redis_keys.shard_of(a.match))[1:]}
    assert len(slots) == 1


async def test_a_move_is_heard_only_by_the_processes_waiting_on_its_match(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    one, two, three = make_store(linger=0.3), make_store(linger=0.3), make_store(linger=0.3)
    t = time.time()
    a = await one.matches.seek("heard-by", "1", None, t)
    b = await one.matches.seek("heard-by", "1", None, t)
    c = await three.matches.seek("heard-by", "1", None, t)
    await three.matches.seek("heard-by", "1", None, t)
    await start(one, a, at=t)
    await start(three, c, at=t)
    layout = redis_keys.Layout(one.prefix)
    first = (await one.matches.info(a.match)).first
    mover = a if first == a.seat else b
    async with asyncio.timeout(10):
        waits = [asyncio.create_task(waited(store, a.match, 1, 10)) for store in (one, two)]
        other = asyncio.create_task(waited(three, c.match, 1, 10))
        await until_subscribers(redis_server.url, layout.channel(a.match, 2), 2)
        assert await subscribers(redis_server.url, layout.channel(c.match, 2)) == 1
        await three.matches.act(mover.match, mover.token, Action("move", 1, "e4"), t)
        assert [len(await wait) for wait in waits] == [1, 1]
        assert not other.done()  # the third process heard nothing of this match
        assert one.heard >= 1 and two.heard >= 1 and three.heard == 0
        other.cancel()
        # Nobody waits any more: each process drops the channel after its linger (its
        # housekeeping sweeps the channels nobody waits on).
        await asyncio.sleep(1.1)
        for store in (one, two, three):
            await store.matches.reap(time.time())
        await until_subscribers(redis_server.url, layout.channel(a.match, 2), 0)


async def test_each_move_is_heard_by_the_one_process_waiting_for_it(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    """The seats of a match on two processes, each move post held for the reply: a move is
    heard by its partner's process, not by its mover's, which waits for the next event."""
    one, two, writer = make_store(), make_store(), make_store()
    t = time.time()
    a = await writer.matches.seek("parity", "1", None, t)
    b = await writer.matches.seek("parity", "1", None, t)
    await start(writer, a, at=t)
    first = (await writer.matches.info(a.match)).first
    x, o = (a, b) if first == a.seat else (b, a)
    layout = redis_keys.Layout(writer.prefix)
    async with asyncio.timeout(10):
        # x's process has waited on the match (for the start) and still follows it.
        assert len(await waited(two, a.match, 0, 10)) == 1
        # o waits on one for x's move (event 2).
        waits_o = asyncio.create_task(waited(one, a.match, 1, 10))
        await until_subscribers(redis_server.url, layout.channel(a.match, 2), 1)
        await until_subscribers(redis_server.url, layout.channel(a.match, 3), 1)
        await writer.matches.act(x.match, x.token, Action("move", 1, "e4"), t)
        assert len(await waits_o) == 1
        # x's post held for the reply (event 3), on two: waiting once its waiter is set.
        waits_x = asyncio.create_task(waited(two, a.match, 2, 10))
        notes = await two.link.notes()
        odd = notes.follow(layout.channel(a.match, 3))
        notes.leave(odd)
        for _ in range(500):
            if odd.waiters:
                break
            await asyncio.sleep(0.01)
        assert odd.waiters, "x's held post never waited"
        await writer.matches.act(o.match, o.token, Action("move", 2, "e5"), t)
        assert [orjson.loads(event)["seq"] for event in await waits_x] == [3]
        # Redis sends a connection its messages in order: had two heard x's move, it would
        # have heard it before o's.
        assert (one.heard, two.heard) == (1, 1)


async def test_waits_begun_while_the_store_connects_are_all_subscribed(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    writer, fresh = make_store(), make_store()
    t = time.time()
    tickets = []
    for index in range(20):
        a = await writer.matches.seek("at-once", "1", f"room{index}", t)
        tickets.append((a, await writer.matches.seek("at-once", "1", f"room{index}", t)))
        await start(writer, a, at=t)
    layout = redis_keys.Layout(writer.prefix)
    async with asyncio.timeout(10):
        # All at once on a store that has not connected yet: the first wait connects it.
        waits = [asyncio.create_task(waited(fresh, a.match, 1, 10)) for a, _ in tickets]
        for a, _ in tickets:
            await until_subscribers(redis_server.url, layout.channel(a.match, 2), 1)
        for a, b in tickets:
            mover = a if (await writer.matches.info(a.match)).first == a.seat else b
            await writer.matches.act(mover.match, mover.token, Action("move", 1, "go"), t)
        assert [len(await wait) for wait in waits] == [1] * 20


async def test_a_seek_cut_between_its_two_steps_is_queued_by_its_seekers_next_poll(
    make_store: StoreMaker,
) -> None:
    store = make_store()
    t = time.time()
    token = new_token()
    # The seek's first step ran (the match is open), its second (queueing it) never did.
    match = await store.matches.open("cut", "1", "", t, hash_token(token), ("", ""))  # no clock
    assert (await store.matches.info(match)).status == Status.WAITING
    # Its seeker polls as it waits; a while after the opening, that queues the match again.
    seat, events = await store.matches.poll(match, token, 0, t + 6)
    assert (seat, events) == (0, [])
    joined = await store.matches.seek("cut", "1", None, t + 7)
    assert (joined.match, joined.seat) == (match, 1)


async def test_a_player_list_cut_between_the_seeks_steps_heals(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    t = time.time()
    token, player = new_token(), "P" * 40
    a = await store.matches.seek("cut", "1", None, t, token, None, player)
    key = store.link.layout.player(hash_token(player))
    assert key.startswith(f"{store.prefix}{{p:") and key_slot(key.encode()) != key_slot(
        store.link.layout.match(a.match).encode()
    )
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        # The match's steps ran; the list's step (its own slot) never did.
        await client.delete(key)
        assert await store.players.matches(player, t + 1) == []
        # The seeker, given no answer, seeks again with its own token: the same seat, listed.
        again = await store.matches.seek("cut", "1", None, t + 1, token, None, player)
        assert (again.match, again.seat) == (a.match, 0)
        listed = await store.players.matches(player, t + 2)
        assert [(row.info.match, row.seat) for row in listed] == [(a.match, 0)]
        # An entry whose match is gone (a lost unlisting by the reaper) is dropped at reading.
        await client.zadd(key, {"gone" + a.match[4:]: t})
        assert len(await store.players.matches(player, t + 3)) == 1
        assert await client.zcard(key) == 1
    finally:
        await client.aclose()


async def test_no_key_of_a_correspondence_match_expires_between_moves(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    t = float(int(time.time()))
    control = TimeControl("deadline", 3 * 86400)
    a = await store.matches.seek("mail", "1", "den", t, new_token(), control, "P" * 40, "c")
    b = await store.matches.seek("mail", "1", "den", t, new_token(), control, "Q" * 40, "d")
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        keys = [key async for key in client.scan_iter(match=f"{store.prefix}*")]
        ttls = {key: await client.pttl(key) for key in keys}
        # Only the seekers' memos of a retried seek lapse (after the grace period), and the
        # keys' public ids (a year after their last seek: relay.store.redis.moderation).
        assert {key for key, ttl in ttls.items() if ttl != -1} == {
            key for key in keys if b"}t:" in key or b"{i:" in key
        }
        # Two days on, nobody polling, the reaper looks and leaves every key be.
        assert await store.matches.reap(t + 2 * 86400) == 0
        for key, ttl in ttls.items():
            if ttl == -1:
                assert await client.exists(key), key
        assert (await store.matches.info(a.match)).status == Status.PLAYING
        assert a.match == b.match
    finally:
        await client.aclose()


async def test_a_primary_short_of_replicas_is_503_until_they_are_back(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    a = await store.matches.seek("noreplicas", "1", None, time.time())
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        await client.config_set("min-replicas-to-write", 1)  # and there is no replica
        with pytest.raises(RelayError) as refused:
            await store.matches.seek("noreplicas", "1", None, time.time())
        assert refused.value.code == "server/unavailable"
        await client.config_set("min-replicas-to-write", 0)
    finally:
        await client.aclose()
    b = await store.matches.seek("noreplicas", "1", None, time.time())
    assert (b.match, b.seat) == (a.match, 1)


async def test_a_hung_redis_gets_503_within_seconds_and_then_recovers(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    t = time.time()
    a = await store.matches.seek("hung", "1", None, t)
    assert redis_server.proc is not None
    os.kill(redis_server.proc.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        with pytest.raises(RelayError) as refused:
            await asyncio.wait_for(store.matches.poll(a.match, a.token, 0, t), 15)
        assert refused.value.code == "server/unavailable"
        assert time.monotonic() - started < 12
    finally:
        os.kill(redis_server.proc.pid, signal.SIGCONT)
    async with asyncio.timeout(10):
        while True:
            try:
                seat, _ = await store.matches.poll(a.match, a.token, 0, time.time())
                break
            except RelayError as error:
                assert error.code == "server/unavailable"
                await asyncio.sleep(0.2)
    assert seat == a.seat
