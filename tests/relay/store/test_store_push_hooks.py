"""What Web Push needs of every store's hooks (memory, Redis, Redis Cluster): each turn of a
match with a clock told for a seat with a player key (not its first: both seats just sought),
with the key's digest and not marked correspondence; a seat with a contact alone told only in
a correspondence match; each write that may end a match told to the end sink; and a seat's
presence read at once, by the reaper's rule."""

from __future__ import annotations

import pytest

from relay import Action, RelayError, Store
from relay.core.clock import TimeControl
from relay.core.model import hash_token
from relay.core.table import AWAY
from relay.core.turns import TurnNotice
from tests.relay.conftest import SETTINGS
from tests.relay.store.calls import FISCHER, listen, move, paired
from tests.relay.store.calls import whole_now as now

MINUTES = TimeControl("deadline", 600)
ANN, BOB = "A" * 40, "B" * 40


def ended_sink(store: Store) -> list[str]:
    """Sets the store's end sink; returns the list of the match ids it is told."""
    told: list[str] = []

    def sink(match: str) -> None:
        told.append(match)

    store.hooks.ended = sink
    return told


async def test_a_timed_match_tells_each_turn_of_a_seat_with_a_player_key(store: Store) -> None:
    told = listen(store)
    store.hooks.timed = True  # as Web Push sets it
    t = now()
    x, o = await paired(store, FISCHER, t, "blitz", players=(ANN, None), contacts=("c", "d"))
    assert told == []  # the first turn: both seats just sought
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 1)
    await store.matches.act(o.match, o.token, move(2, "e5"), t + 2)
    await store.matches.act(o.match, o.token, move(2, "e5"), t + 2)  # a retry tells nothing
    # Only the keyed seat is told (seat 0): the other has a contact, but no deadline.
    assert [notice.seat for notice in told] == [0]
    [notice] = told
    assert isinstance(notice, TurnNotice)
    # Seat 0 is given the turn by event 2 when it moves second, else by event 3.
    expected = 3 if x.seat == 0 else 2
    assert (notice.player, notice.correspondence, notice.seq) == (hash_token(ANN), False, expected)
    assert notice.due > t + 2


async def test_without_web_push_a_timed_match_tells_nothing(store: Store) -> None:
    told = listen(store)  # the webhook's sink alone: hooks.timed stays False
    t = now()
    x, o = await paired(store, FISCHER, t, "blitz", players=(ANN, BOB), contacts=("c", "d"))
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 1)
    await store.matches.act(o.match, o.token, move(2, "e5"), t + 2)
    assert told == []


async def test_a_correspondence_turn_carries_the_seats_key(store: Store) -> None:
    told = listen(store)
    t = now()
    x, _o = await paired(store, MINUTES, t, players=(ANN, BOB))
    assert [(n.seat, n.seq, n.contact, n.correspondence) for n in told] == [(x.seat, 1, "", True)]
    assert told[0].player == hash_token((ANN, BOB)[x.seat])


async def test_writes_that_may_end_a_match_tell_the_end_sink(store: Store) -> None:
    ended = ended_sink(store)
    t = now()
    x, o = await paired(store, MINUTES, t, players=(ANN, BOB))
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 1)
    assert ended == []
    await store.matches.act(o.match, o.token, Action("resign"), t + 2)
    assert ended == [x.match]
    y, p = await paired(store, MINUTES, t, "other")
    await store.matches.act(y.match, y.token, move(1, "mate", end=True), t + 1)
    await store.matches.act(p.match, p.token, Action("confirm", 2), t + 2)
    assert ended == [x.match, y.match]


async def test_a_seat_is_present_while_it_may_hold_a_poll(store: Store) -> None:
    t = now()
    x, _o = await paired(store, MINUTES, t)
    hold = SETTINGS.hold
    assert await store.tables.present(x.match, x.seat, t + 1)
    # It began no poll for the hold and AWAY seconds: gone, read at once (no reaper needed).
    assert not await store.tables.present(x.match, x.seat, t + hold + AWAY + 0.5)
    # A poll brings it back; its client gone ends the presence AWAY seconds later.
    await store.matches.poll(x.match, x.token, 0, t + 20)
    assert await store.tables.present(x.match, x.seat, t + 20.5)
    await store.matches.left(x.match, x.token, t + 20, t + 21)
    assert await store.tables.present(x.match, x.seat, t + 21 + AWAY - 0.5)
    assert not await store.tables.present(x.match, x.seat, t + 21 + AWAY)
    with pytest.raises(RelayError) as unknown:
        await store.tables.present("nomatch", 0, t)
    assert unknown.value.code == "match/unknown"
