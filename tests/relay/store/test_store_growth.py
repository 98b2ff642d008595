"""What rated play leaves in a store is bounded and goes away: matches after --keep, a
pair's daily count and a rated match's marker after a day, a name's look after its
hold, and a key's rating, history and game list after RatingRules.keep without a rated game
(docs/hosting.md#what-a-store-holds).
Rated matches are played as fast as a store takes them, between fresh pairs of keys."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time

import pytest

from relay import Action, MemoryStore, Store
from relay.core.rated import RatingRules
from relay.core.text_policy import skeletons
from relay.store.redis.store import RedisStore
from tests.relay.conftest import SETTINGS
from tests.relay.store.calls import start
from tests.support.redis_server import fresh_redis_store

MATCHES = 200
"""Rated matches each test plays."""

KEEP = 4.0
"""Seconds the tests' ratings and finished matches are kept."""

SHORT = dataclasses.replace(
    SETTINGS,
    keep=KEEP,
    name_hold=KEEP,
    ratings=RatingRules(unrefereed=True, keep=KEEP),
)


async def play_rated(store: Store, now: float) -> list[str]:
    """Plays MATCHES rated matches between fresh pairs of named keys; returns the keys."""
    keys: list[str] = []
    for n in range(MATCHES):
        pair = (secrets.token_urlsafe(32), secrets.token_urlsafe(32))
        room = secrets.token_hex(6)
        one = await store.matches.seek("grow", "", room, now, player=pair[0], name=f"Ann{n}")
        await store.matches.seek("grow", "", room, now, player=pair[1], name=f"Bob{n}")
        await start(store, one, at=now)
        assert await store.players.claim_name(skeletons(f"Ann{n}"), pair[0], now)
        await store.matches.act(one.match, one.token, Action("resign"), now)
        keys += pair
    return keys


async def test_the_memory_store_forgets_idle_ratings_and_old_matches() -> None:
    store = MemoryStore(SHORT)
    now = time.time()
    keys = await play_rated(store, now)
    (found,) = await store.players.ratings(keys[0], None, now)
    assert found["games"] == 1
    later = now + 3600 + KEEP + 1  # past the keep, and past the reaper's hourly sweep
    await store.matches.reap(later)
    assert [await store.players.ratings(key, None, later) for key in keys[:10]] == [[]] * 10
    assert store.registry.ratings._standings == {} and store.registry.ratings._games == {}
    assert store.registry.matches == {}


async def test_the_redis_store_holds_a_few_kilobytes_a_rated_match_and_then_nothing(
    request: pytest.FixtureRequest,
) -> None:
    store: RedisStore = await fresh_redis_store(request, SHORT)
    try:
        client = await store.link.client()
        before_keys = await client.dbsize()
        before = (await client.info("memory"))["used_memory"]
        now = time.time()
        keys = await play_rated(store, now)
        await store.matches.reap(now + 1.5)  # settles the ratings the enders left
        grown = (await client.info("memory"))["used_memory"] - before
        per_match = grown / MATCHES
        assert per_match < 12_000, per_match  # both ratings, histories, the match itself
        assert await client.dbsize() > before_keys + MATCHES
        (found,) = await store.players.ratings(keys[-1], None, now + 1.6)  # the last, unexpired
        assert found["games"] == 1
        # After the keep: the matches forgotten by the reaper, every rating key expired.
        await asyncio.sleep(KEEP + 0.5)
        await store.matches.reap(time.time() + KEEP)
        mine = store.prefix  # other tests' keys on this redis-server are theirs
        left = [key async for key in client.scan_iter(match=f"{mine}{{g:grow}}*")]
        left += [key async for key in client.scan_iter(match=f"{mine}{{n:*")]
        # What stays is each match's rated marker and each pair's count of the day, which
        # expire by themselves within a day, and each match's void record, within 7 days:
        # no rating, history or name binding.
        kinds = {key.decode().split("}", 1)[1].split(":", 1)[0] for key in left}
        assert kinds <= {"rated", "pair", "void"}, (kinds, left[:5])
        for key in left:
            most = 7 * 86_400 if b"}void:" in key else 86_400
            assert 0 < await client.ttl(key) <= most, key
        assert await store.players.ratings(keys[0], None, time.time()) == []
        assert await store.players.leaderboard("grow", 10, time.time()) == []
    finally:
        await store.close()
