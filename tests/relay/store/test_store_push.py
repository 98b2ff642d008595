"""Push subscriptions in each store (memory, Redis, Redis Cluster), driven through Store.push:
kept per player key, renewed, capped per key (the least recently renewed gives way),
forgotten when not renewed for KEEP, dropped one by one (relay.store.push)."""

from __future__ import annotations

import secrets
import time

import pytest

from relay import MemoryStore, RelayError, Store
from relay.store import push as rules
from relay.store.push import KEEP, SUBSCRIPTIONS_PER_PLAYER


def player() -> str:
    return secrets.token_hex(32)


def endpoint(n: int) -> str:
    return f"https://push.example/send/{n}"


async def test_a_players_subscriptions_are_kept_renewed_and_dropped(store: Store) -> None:
    now = time.time()
    part, one, other = store.push, player(), player()
    assert await part.keep(one, endpoint(1), b"first", now) == 1
    assert await part.keep(one, endpoint(2), b"second", now + 1) == 2
    assert await part.keep(other, endpoint(1), b"another's", now) == 1
    assert await part.of(one, now + 2) == [b"second", b"first"]
    # The same endpoint again replaces its data and renews it: it is now the newest.
    assert await part.keep(one, endpoint(1), b"first, renewed", now + 3) == 2
    assert await part.of(one, now + 4) == [b"first, renewed", b"second"]
    assert await part.drop(one, endpoint(2))
    assert not await part.drop(one, endpoint(2))
    assert await part.of(one, now + 4) == [b"first, renewed"]
    assert await part.of(other, now + 4) == [b"another's"]
    assert await part.of(player(), now) == []


async def test_a_player_keeps_a_handful_the_oldest_giving_way(store: Store) -> None:
    now = time.time()
    part, one = store.push, player()
    for n in range(SUBSCRIPTIONS_PER_PLAYER + 3):
        kept = await part.keep(one, endpoint(n), str(n).encode(), now + n)
        assert kept == min(n + 1, SUBSCRIPTIONS_PER_PLAYER)
    found = await part.of(one, now + 20)
    newest = range(SUBSCRIPTIONS_PER_PLAYER + 2, 2, -1)
    assert found == [str(n).encode() for n in newest]


async def test_a_subscription_not_renewed_for_long_is_forgotten(store: Store) -> None:
    now = time.time()
    part, one = store.push, player()
    await part.keep(one, endpoint(1), b"old", now)
    await part.keep(one, endpoint(2), b"new", now + KEEP / 2)
    assert await part.of(one, now + KEEP + 1) == [b"new"]
    assert await part.of(one, now + KEEP * 2) == []
    # A forgotten one no longer counts against the cap.
    assert await part.keep(one, endpoint(3), b"newer", now + KEEP * 2) <= 2


async def test_the_memory_store_keeps_a_bounded_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("relay.store.memory.push.SUBSCRIPTIONS_MOST", 3)
    assert rules.SUBSCRIPTIONS_MOST > 3
    part, now = MemoryStore().push, time.time()
    first = player()
    await part.keep(first, endpoint(0), b"", now)
    for n in range(1, 3):
        await part.keep(player(), endpoint(n), b"", now)
    with pytest.raises(RelayError) as refused:
        await part.keep(player(), endpoint(9), b"", now)
    assert refused.value.code == "push/full"
    # Renewing one kept adds nothing, and is not refused.
    assert await part.keep(first, endpoint(0), b"renewed", now + 1) == 1
