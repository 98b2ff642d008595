"""Rematches and lobbies in the Redis store across relay processes: waits held in one process
wake at a change made in another, an acceptance left half done is finished by the next
reader, and the keys stay apart (one match's, or one game's lobby's, per script)."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis
from redis.crc import key_slot

from relay.core.errors import RelayError
from relay.core.model import Action, Ticket, hash_token
from relay.store.redis.keys import Layout
from relay.store.redis.store import RedisStore
from tests.hosting.conftest import SETTINGS, StoreMaker
from tests.relay.store.calls import start
from tests.support.redis_server import RedisServer


async def finished(store: RedisStore, game: str) -> tuple[Ticket, Ticket]:
    """Pairs two seekers (seat 0 polls again, which starts the match) and ends their match
    by a resignation."""
    a = await store.matches.seek(game, "1", None, time.time())
    b = await store.matches.seek(game, "1", None, time.time())
    await start(store, a)
    await store.matches.act(a.match, a.token, Action("resign"), time.time())
    return a, b


async def test_a_rematch_wait_in_one_process_wakes_at_an_offer_in_another(
    make_store: StoreMaker,
) -> None:
    one, two = make_store(), make_store()
    a, b = await finished(one, "x-wake")
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(one.rematches.wait(a.match, 0, 10, time.time()))
        await asyncio.sleep(0.2)  # subscribed by now
        sent = time.monotonic()
        await two.rematches.step(b.match, b.token, "offer", time.time())
        heard = await waiting
    assert heard.state == "offered" and heard.offers[b.seat]
    assert time.monotonic() - sent < 1.0  # from the notification, not a recheck


async def test_acceptances_in_two_processes_at_once_start_one_match(
    make_store: StoreMaker,
) -> None:
    one, two = make_store(), make_store()
    a, b = await finished(one, "x-race")
    await one.rematches.step(a.match, a.token, "offer", time.time())
    both = await asyncio.gather(
        one.rematches.step(b.match, b.token, "offer", time.time()),
        two.rematches.step(b.match, b.token, "offer", time.time()),
    )
    new = both[0].match
    assert new is not None and both[1].match == new
    info = await two.matches.info(new)
    assert info.status.value == "playing" and info.last == 1


async def test_an_acceptance_left_half_done_is_finished_by_the_next_reader(
    make_store: StoreMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    crashing, other = make_store(), make_store()
    a, b = await finished(crashing, "x-half")
    await crashing.rematches.step(a.match, a.token, "offer", time.time())

    call = crashing.link.call

    async def crash(name: str, keys: list[str], args: list[object]) -> object:
        if name == "REMATCH_START":  # the relay process lost Redis between the two calls
            raise RelayError("server/unavailable")
        return await call(name, keys, args)

    # Only the old match's script runs: the new match is not created.
    monkeypatch.setattr(crashing.link, "call", crash)
    with pytest.raises(RelayError) as caught:
        await crashing.rematches.step(b.match, b.token, "offer", time.time())
    assert caught.value.code == "server/unavailable"
    read = await other.rematches.step(a.match, None, "read", time.time())
    assert read.state == "accepted" and read.match is not None
    seat, events = await other.matches.poll(read.match, a.token, 0, time.time())
    assert seat == a.seat and len(events) == 1


async def test_rematch_and_lobby_keys_are_their_own(
    make_store: StoreMaker, redis_server: RedisServer
) -> None:
    store = make_store()
    a, b = await finished(store, "x-keys")
    await store.rematches.step(a.match, a.token, "offer", time.time())
    accepted = await store.rematches.step(b.match, b.token, "offer", time.time())
    listed = await store.matches.seek("x-keys", "1", "den", time.time())
    await store.lobbies.add("x-keys", "open", listed.match, time.time())
    p = store.prefix
    layout = Layout(p)
    rematch = f"{layout.tagged(a.match)}x:{a.match}"
    assert accepted.match is not None
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        keys = {key.decode() async for key in client.scan_iter(match=f"{p}*")}
        ttl = await client.pttl(rematch)
        new = await client.hgetall(layout.match(accepted.match))
    finally:
        await client.aclose()
    # The rematch beside the match, in its slot; the lobby under the game's hash tag.
    assert rematch in keys and 0 < ttl <= SETTINGS.keep * 1000
    assert key_slot(rematch.encode()) == key_slot(layout.match(a.match).encode())
    assert {f"{p}{{g:x-keys}}lobby:{k}" for k in ("open", "t", "v")} <= keys
    # The new match's seats are the old seats' token digests: nobody seeks again.
    assert (new[b"h0"].decode(), new[b"h1"].decode()) == (  # type: ignore[union-attr, unused-ignore]
        hash_token(a.token if a.seat == 0 else b.token),
        hash_token(b.token if b.seat == 1 else a.token),
    )


async def test_a_lobby_wait_in_one_process_wakes_at_a_listing_in_another(
    make_store: StoreMaker,
) -> None:
    one, two = make_store(), make_store()
    version = (await one.lobbies.read("x-lobby")).version
    async with asyncio.timeout(5):
        waiting = asyncio.create_task(one.lobbies.wait("x-lobby", version, 10))
        await asyncio.sleep(0.2)
        seek = await two.matches.seek("x-lobby", "1", "den", time.time())
        sent = time.monotonic()
        await two.lobbies.add("x-lobby", "open", seek.match, time.time())
        await waiting
    assert time.monotonic() - sent < 1.0
    lobby = await one.lobbies.read("x-lobby")
    assert lobby.version > version and [e.info.match for e in lobby.entries] == [seek.match]
