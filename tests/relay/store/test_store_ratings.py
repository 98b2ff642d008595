"""Ratings in each store, driven through the Store interface: a match rated once whoever ends
it, and on Redis a rating left pending by a process that died after ending the match is
settled by the reaper, once (docs/ratings.md)."""

from __future__ import annotations

import dataclasses
import itertools
import secrets
from collections.abc import AsyncIterator

import pytest

from relay import MemoryStore, RelayError, Store
from relay.core.model import Action
from relay.core.rated import RatingRules
from relay.store.redis.store import RedisStore
from tests.relay.conftest import SETTINGS, STORE_KINDS
from tests.relay.store.calls import start
from tests.support.redis_cluster import fresh_cluster_store
from tests.support.redis_server import fresh_redis_store

NOW = 1_800_000_000.0


def key() -> str:
    """Returns a fresh player key."""
    return secrets.token_urlsafe(32)


async def resigned(store: Store, players: tuple[str, str]) -> tuple[str, str]:
    """Pairs the two keys and has the first resign; returns the match and the loser's key."""
    one = await store.matches.seek("g", "", None, NOW, player=players[0])
    await store.matches.seek("g", "", None, NOW, player=players[1])
    await start(store, one, at=NOW)
    await store.matches.act(one.match, one.token, Action("resign"), NOW + 1)
    return one.match, players[0]


@pytest.fixture(params=["redis", "cluster"])
async def redis_store(request: pytest.FixtureRequest) -> AsyncIterator[RedisStore]:
    """Returns an empty Redis store, on one redis-server and on a Redis Cluster."""
    made = fresh_redis_store if request.param == "redis" else fresh_cluster_store
    store: RedisStore = await made(request, SETTINGS)
    try:
        yield store
    finally:
        await store.close()


async def test_a_match_is_rated_once(store: Store) -> None:
    players = (key(), key())
    match, loser = await resigned(store, players)
    await store.matches.reap(NOW + 5)  # settles nothing more: rated once
    info = await store.matches.info(match)
    assert info.rated is True and info.ratings is not None
    for player in players:
        (found,) = await store.players.ratings(player, None, NOW + 5)
        assert found["games"] == 1 and len(found["history"]) == 1
    (lost,) = await store.players.ratings(loser, "g", NOW + 5)
    assert lost["rating"] < 1500


async def test_a_rating_left_pending_is_settled_by_the_reaper_once(redis_store: RedisStore) -> None:
    store = redis_store
    store.matches.rates_at_once = False  # the process that ends the match dies before rating it
    players = (key(), key())
    match, _ = await resigned(store, players)
    assert (await store.matches.info(match)).rated == "pending"
    assert await store.players.ratings(players[0], None, NOW + 1) == []
    await store.matches.reap(NOW + 1.5)  # too soon: left to the ender
    assert (await store.matches.info(match)).rated == "pending"
    await store.matches.reap(NOW + 5)
    info = await store.matches.info(match)
    assert info.rated is True and info.ratings is not None
    await store.ratings.settle(match, NOW + 6)  # a second settle (another reaper): nothing
    for player in players:
        (found,) = await store.players.ratings(player, None, NOW + 6)
        assert found["games"] == 1 and [e["match"] for e in found["history"]] == [match]


class Died(Exception):
    """Raised where the process settling a rating dies."""


async def test_a_settling_that_dies_once_its_mark_is_cleared_leaves_each_key_listing_the_game(
    redis_store: RedisStore,
) -> None:
    store = redis_store
    store.matches.rates_at_once = False
    players = (key(), key())
    match, _ = await resigned(store, players)
    call = store.link.call

    async def dies_after_rated(name: str, keys: list[str], args: list[object]) -> object:
        answer = await call(name, keys, args)
        if name == "RATED":
            raise Died  # the mark is cleared, and nothing after it runs
        return answer

    store.link.call = dies_after_rated  # type: ignore[method-assign]
    with pytest.raises(Died):
        await store.ratings.settle(match, NOW + 5)
    store.link.call = call  # type: ignore[method-assign]
    await store.matches.reap(NOW + 6)
    assert (await store.matches.info(match)).rated is True
    for player in players:
        (found,) = await store.players.ratings(player, None, NOW + 6)
        assert found["game"] == "g" and found["games"] == 1


async def ended_by_an_earlier_release(store: RedisStore, players: tuple[str, str]) -> str:
    """Returns a match the first key resigned, as a release before ratings on Redis ended it:
    no rating marked pending ('rate' unset), not in its shard's torate set."""
    store.matches.rates_at_once = False
    match, _ = await resigned(store, players)
    client = await store.link.client()
    await client.hdel(store.link.layout.match(match), "rate")
    await client.zrem(f"{store.link.layout.tagged(match)}torate", match)
    assert (await store.matches.info(match)).rated is False
    return match


async def test_a_match_an_earlier_release_ended_is_rated_once_read(redis_store: RedisStore) -> None:
    store = redis_store
    players = (key(), key())
    match = await ended_by_an_earlier_release(store, players)
    await store.matches.poll(
        match, None, 0, NOW + 2
    )  # a reader of the ended match, on this release
    assert (await store.matches.info(match)).rated == "pending"
    await store.matches.reap(NOW + 5)
    assert (await store.matches.info(match)).rated is True
    for player in players:
        (found,) = await store.players.ratings(player, None, NOW + 6)
        assert found["games"] == 1


async def test_a_match_an_earlier_release_ended_and_nobody_read_is_rated_before_it_is_forgotten(
    redis_store: RedisStore,
) -> None:
    store = redis_store
    players = (key(), key())
    match = await ended_by_an_earlier_release(store, players)
    forget = NOW + 1 + SETTINGS.keep + 1
    await store.matches.reap(forget)  # due to be forgotten: marked instead, and kept a minute
    assert (await store.matches.info(match)).rated == "pending"
    await store.matches.reap(forget + 2)
    assert (await store.matches.info(match)).rated is True
    await store.matches.reap(forget + 70)  # then forgotten
    with pytest.raises(RelayError):
        await store.matches.info(match)
    (found,) = await store.players.ratings(players[0], None, forget + 70)
    assert found["games"] == 1


FAIR = dataclasses.replace(SETTINGS, ratings=RatingRules(unrefereed=True))
"""The default fair-play rules (pairs rated three times a day, leaderboards after five
opponents and a week), every game rated."""


async def fair_store(request: pytest.FixtureRequest, kind: str) -> Store:
    """Returns an empty store of a kind with the default fair-play rules."""
    if kind == "memory":
        return MemoryStore(FAIR)
    if kind == "redis":
        return await fresh_redis_store(request, FAIR)
    return await fresh_cluster_store(request, FAIR)


async def resign(store: Store, loser: str, winner: str, at: float, game: str = "g") -> str:
    """Pairs the two keys in a private room at `at`; the loser resigns; returns the match."""
    room = secrets.token_hex(4)
    one = await store.matches.seek(game, "", room, at, player=loser)
    await store.matches.seek(game, "", room, at, player=winner)
    await start(store, one, at=at)
    await store.matches.act(one.match, one.token, Action("resign"), at + 0.5)
    await store.matches.reap(at + 5)  # settles what the ender left (Redis)
    return one.match


@pytest.mark.parametrize("kind", STORE_KINDS)
async def test_a_pair_of_keys_is_rated_three_times_a_day(
    request: pytest.FixtureRequest, kind: str
) -> None:
    store = await fair_store(request, kind)
    try:
        main, sock = key(), key()
        rated = []
        for n in range(5):
            match = await resign(store, sock, main, NOW + 10 * n)
            rated.append((await store.matches.info(match)).rated)
        assert rated == [True, True, True, False, False]
        (found,) = await store.players.ratings(main, "g", NOW + 60)
        assert found["games"] == 3
        # A day after the first, the pair may be rated again.
        match = await resign(store, sock, main, NOW + 86_400 + 1)
        assert (await store.matches.info(match)).rated is True
    finally:
        await store.close()


@pytest.mark.parametrize("kind", STORE_KINDS)
async def test_the_leaderboard_wants_five_opponents_and_a_week(
    request: pytest.FixtureRequest, kind: str
) -> None:
    store = await fair_store(request, kind)
    try:
        main = key()
        opponents = [key() for _ in range(5)]
        t = NOW
        # Two socks, three wins a day over each for two days: not five opponents.
        for day in range(2):
            for sock in opponents[:2]:
                for _ in range(3):
                    await resign(store, sock, main, NOW + day * 86_400 + t - NOW)
                    t += 10
        assert await store.players.leaderboard("g", 10, t + 86_400) == []
        # Six keys that play each other three times a day are established within days, and
        # listed only once a week has passed since their first rated game.
        group = [main, *opponents]

        async def round_robin(start: float) -> float:
            at = start
            for a, b in itertools.combinations(group, 2):
                for n in range(3):
                    await resign(store, *((a, b) if n % 2 else (b, a)), at)
                    at += 10
            return at

        at = NOW + 2 * 86_400
        for day in range(3):
            at = await round_robin(NOW + (2 + day) * 86_400)
        (found,) = await store.players.ratings(main, "g", at)
        assert not found["provisional"], found
        assert await store.players.leaderboard("g", 10, at) == []
        at = await round_robin(NOW + 9.5 * 86_400)  # a week after the last first game
        rows = await store.players.leaderboard("g", 10, at)
        assert len(rows) == len(group), rows
    finally:
        await store.close()
