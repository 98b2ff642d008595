"""The store's rematches and lobbies, run unchanged against every store implementation
(part of the conformance suite: the `store` fixture gives each kind)."""

from __future__ import annotations

import asyncio
import time

from relay import Action, Status, Store, Ticket
from tests.relay.conftest import SETTINGS
from tests.relay.store.calls import expect_error, move, mover, now, pair, parse, start

GRACE = SETTINGS.grace


async def finished(store: Store) -> tuple[Ticket, Ticket, int]:
    """Pairs two seekers and ends their match by a resignation; returns the tickets and
    the seat that moved first."""
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    await store.matches.act(a.match, a.token, Action("resign"), now())
    return a, b, x.seat


# -- rematch -------------------------------------------------------------------------------


async def test_rematch_of_a_finished_match_swaps_the_first_mover(store: Store) -> None:
    a, b, first = await finished(store)
    assert (await store.rematches.step(a.match, None, "read", now())).state == "none"
    offered = await store.rematches.step(a.match, a.token, "offer", now())
    assert (offered.state, offered.offers, offered.version) == ("offered", (True, False), 1)
    accepted = await store.rematches.step(b.match, b.token, "offer", now())
    assert (accepted.state, accepted.offers, accepted.version) == ("accepted", (True, True), 2)
    assert accepted.match is not None and accepted.match != a.match
    assert accepted.first == 1 - first
    # Each seat plays on with its own token, from its own seat.
    for ticket in (a, b):
        seat, events = await store.matches.poll(accepted.match, ticket.token, 0, now())
        assert seat == ticket.seat
        assert parse(events) == [{"seq": 1, "type": "started", "first": 1 - first}]
    info = await store.matches.info(accepted.match)
    assert (info.status, info.game, info.version, info.turn) == (
        Status.PLAYING, "xand0", "1", 1 - first,
    )  # fmt: skip
    x = a if a.seat == 1 - first else b
    assert await store.matches.act(accepted.match, x.token, move(1, "11"), now()) == 2
    # The old match still ends with its 'ended' event.
    assert parse((await store.matches.poll(a.match, None, 0, now()))[1])[-1]["type"] == "ended"


async def test_repeated_offers_and_accepts_start_one_match(store: Store) -> None:
    a, b, _ = await finished(store)
    await store.rematches.step(a.match, a.token, "offer", now())
    assert (await store.rematches.step(a.match, a.token, "offer", now())).version == 1
    both = await asyncio.gather(
        store.rematches.step(b.match, b.token, "offer", now()),
        store.rematches.step(b.match, b.token, "offer", now()),
        store.rematches.step(a.match, a.token, "offer", now()),
    )
    assert {r.match for r in both} == {both[0].match}
    assert {r.version for r in both} == {2}
    assert (await store.matches.counts())[Status.PLAYING] == 1


async def test_rematch_can_be_offered_only_after_the_end(store: Store) -> None:
    a, _ = await pair(store)
    await expect_error(
        "rematch/not_finished", store.rematches.step(a.match, a.token, "offer", now())
    )
    assert (await store.rematches.step(a.match, None, "read", now())).state == "none"
    lone = await store.matches.seek("xand0", "1", "room-r", now())
    await expect_error(
        "rematch/not_finished", store.rematches.step(lone.match, lone.token, "offer", now())
    )


async def test_decline_clears_the_offer_and_a_new_one_can_follow(store: Store) -> None:
    a, b, _ = await finished(store)
    await store.rematches.step(a.match, a.token, "offer", now())
    declined = await store.rematches.step(b.match, b.token, "decline", now())
    assert (declined.state, declined.offers, declined.by) == ("declined", (False, False), b.seat)
    again = await store.rematches.step(b.match, b.token, "offer", now())
    assert (again.state, again.offers, again.version) == ("offered", (False, True), 3)
    withdrawn = await store.rematches.step(b.match, b.token, "decline", now())
    assert (withdrawn.state, withdrawn.by, withdrawn.version) == ("declined", b.seat, 4)
    assert (await store.rematches.step(b.match, b.token, "decline", now())).version == 4


async def test_a_decline_ahead_of_any_offer_says_no_once(store: Store) -> None:
    a, b, _ = await finished(store)
    early = await store.rematches.step(a.match, a.token, "decline", now())
    assert (early.state, early.by, early.version) == ("declined", a.seat, 1)
    assert (await store.rematches.step(a.match, a.token, "decline", now())).version == 1
    other = await store.rematches.step(b.match, b.token, "decline", now())
    assert (other.by, other.version) == (b.seat, 2)


async def test_offer_lapses_after_the_grace_period(store: Store) -> None:
    a, b, _ = await finished(store)
    start = now()
    await store.rematches.step(a.match, a.token, "offer", start)
    assert (await store.rematches.step(a.match, None, "read", start + GRACE - 1)).state == "offered"
    lapsed = await store.rematches.step(a.match, None, "read", start + GRACE + 1)
    assert (lapsed.state, lapsed.offers, lapsed.version) == ("lapsed", (False, False), 2)
    # The partner's late acceptance is an offer of its own, not a start.
    late = await store.rematches.step(b.match, b.token, "offer", start + GRACE + 2)
    assert (late.state, late.match) == ("offered", None)


async def test_accepted_rematch_cannot_be_declined_and_strangers_are_refused(
    store: Store,
) -> None:
    a, b, _ = await finished(store)
    await store.rematches.step(a.match, a.token, "offer", now())
    await store.rematches.step(b.match, b.token, "offer", now())
    await expect_error("rematch/accepted", store.rematches.step(a.match, a.token, "decline", now()))
    stranger = "s" * 43
    await expect_error("auth/bad_token", store.rematches.step(a.match, stranger, "offer", now()))
    await expect_error("match/unknown", store.rematches.step("nope", None, "read", now()))


async def test_rematch_wait_wakes_at_an_offer_and_times_out_unchanged(store: Store) -> None:
    a, b, _ = await finished(store)
    waiter = asyncio.create_task(store.rematches.wait(a.match, 0, 30, now()))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    sent = time.monotonic()
    await store.rematches.step(b.match, b.token, "offer", now())
    async with asyncio.timeout(2):
        woke = await waiter
    assert woke.state == "offered" and woke.offers[b.seat]
    assert time.monotonic() - sent < 0.5
    started = time.monotonic()
    async with asyncio.timeout(3):
        same = await store.rematches.wait(a.match, 1, 0.2, now())
    assert same.version == 1 and 0.19 <= time.monotonic() - started < 0.8


async def test_rematch_wait_answers_when_the_offer_lapses(store: Store) -> None:
    a, _, _ = await finished(store)
    start = now()
    await store.rematches.step(a.match, a.token, "offer", start - GRACE + 0.2)
    async with asyncio.timeout(3):
        lapsed = await store.rematches.wait(a.match, 1, 2, start)
    assert lapsed.state == "lapsed"


# -- lobby ---------------------------------------------------------------------------------


async def test_lobby_lists_open_seeks_then_live_then_recent(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", "public-room", now())
    await store.lobbies.add("xand0", "open", a.match, now())
    lobby = await store.lobbies.read("xand0")
    assert [(e.kind, e.info.match, e.info.room) for e in lobby.entries] == [
        ("open", a.match, "public-room")
    ]
    version = lobby.version
    b = await store.matches.seek("xand0", "1", "public-room", now())
    await store.lobbies.promote("xand0", b.match, now())
    await start(store, a)  # the waiting seeker polls again: play starts
    lobby = await store.lobbies.read("xand0")
    assert lobby.version > version
    assert [(e.kind, e.info.status) for e in lobby.entries] == [("live", Status.PLAYING)]
    await store.matches.act(a.match, a.token, Action("resign"), now())
    version = lobby.version
    lobby = await store.lobbies.read("xand0")
    assert lobby.version > version  # a reader moved it on: a change
    assert [(e.kind, e.info.match) for e in lobby.entries] == [("recent", a.match)]
    assert (await store.lobbies.read("xand0")).version == lobby.version  # nothing more to heal
    assert (await store.lobbies.read("connect4")).entries == ()


async def test_lobby_drops_entries_whose_match_is_gone(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    await store.lobbies.add("xand0", "open", a.match, now())
    await store.matches.act(a.match, a.token, Action("cancel"), now())
    await store.lobbies.add("xand0", "live", "no-such-match", now())
    lobby = await store.lobbies.read("xand0")
    assert lobby.entries == ()
    again = await store.lobbies.read("xand0")
    assert again.version == lobby.version


async def test_lobby_lists_are_bounded_newest_first(store: Store) -> None:
    seeks = [await store.matches.seek("dots", "1", f"room-{i}", now()) for i in range(5)]
    for i, ticket in enumerate(seeks):
        await store.lobbies.add("dots", "open", ticket.match, now() + i)
    lobby = await store.lobbies.read("dots")
    assert [e.info.match for e in lobby.entries] == [t.match for t in seeks[::-1][:3]]


async def test_lobby_wait_wakes_at_a_change(store: Store) -> None:
    version = (await store.lobbies.read("xand0")).version
    waiter = asyncio.create_task(store.lobbies.wait("xand0", version, 30))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    a = await store.matches.seek("xand0", "1", None, now())
    await store.lobbies.add("xand0", "open", a.match, now())
    async with asyncio.timeout(2):
        await waiter
    assert (await store.lobbies.read("xand0")).version > version


async def test_a_live_entry_read_before_seat_0_polls_again_stays_listed(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", "public-room", now())
    await store.lobbies.add("xand0", "open", a.match, now())
    b = await store.matches.seek("xand0", "1", "public-room", now())
    await store.lobbies.promote("xand0", b.match, now())  # what POST /v1/seek does
    # A lobby reader woken by the promote reads at once, before play starts.
    early = await store.lobbies.read("xand0")
    assert [(e.kind, e.info.status) for e in early.entries] == [("live", Status.WAITING)]
    await start(store, a)  # seat 0 polls again: play starts
    lobby = await store.lobbies.read("xand0")
    assert [(e.kind, e.info.match, e.info.status) for e in lobby.entries] == [
        ("live", a.match, Status.PLAYING)
    ]
