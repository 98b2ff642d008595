"""Time controls, run unchanged against every store implementation: pairing by control, the
seat to move charged by the turn, the increment, deadlines per move and timeouts."""

from __future__ import annotations

import pytest

from relay import Action, Status, Store, Ticket
from relay.core.clock import TimeControl
from tests.relay.store.calls import FISCHER, expect_error, move, parse, start
from tests.relay.store.calls import whole_now as now

DEADLINE = TimeControl("deadline", 60)
BLITZ = TimeControl("fischer", 5, 0)


async def clocked(
    store: Store, control: TimeControl, t: float, game: str = "clocked"
) -> tuple[Ticket, Ticket]:
    """Pairs two seekers of a control at time t, seat 0 polling again then (a match with a
    per-move deadline started at the join already); returns (seat to move first, the other)."""
    a = await store.matches.seek(game, "1", None, t, None, control)
    b = await store.matches.seek(game, "1", None, t, None, control)
    assert (a.match, a.seat, b.seat) == (b.match, 0, 1)
    await start(store, a, at=t)
    _, events = await store.matches.poll(a.match, None, 0, t)
    return (a, b) if parse(events)[0]["first"] == 0 else (b, a)


async def test_seekers_of_different_controls_never_meet(store: Store) -> None:
    t = now()
    fischer = await store.matches.seek("clocked", "1", None, t, None, FISCHER)
    plain = await store.matches.seek("clocked", "1", None, t)
    deadline = await store.matches.seek("clocked", "1", None, t, None, DEADLINE)
    other = await store.matches.seek("clocked", "1", None, t, None, TimeControl("fischer", 300, 2))
    assert [ticket.seat for ticket in (fischer, plain, deadline, other)] == [0, 0, 0, 0]
    assert len({fischer.match, plain.match, deadline.match, other.match}) == 4
    assert (await store.matches.seek("clocked", "1", None, t, None, FISCHER)).match == fischer.match
    assert (await store.matches.seek("clocked", "1", None, t)).match == plain.match
    assert (
        await store.matches.seek("clocked", "1", None, t, None, DEADLINE)
    ).match == deadline.match


async def test_room_refuses_a_seeker_of_another_control(store: Store) -> None:
    t = now()
    await store.matches.seek("clocked", "1", "blitz", t, None, BLITZ)
    error = await expect_error(
        "room/control_mismatch", store.matches.seek("clocked", "1", "blitz", t)
    )
    assert "fischer" in error.message and "no clock" in error.message
    await expect_error(
        "room/control_mismatch", store.matches.seek("clocked", "1", "blitz", t, None, FISCHER)
    )
    joined = await store.matches.seek("clocked", "1", "blitz", t, None, BLITZ)
    assert joined.seat == 1
    assert (await store.matches.info(joined.match)).clock is not None


async def test_started_announces_the_control_and_each_seats_time(store: Store) -> None:
    x, _ = await clocked(store, FISCHER, now())
    _, events = await store.matches.poll(x.match, None, 0, now())
    assert b'"time_control":{"kind":"fischer","base":300,"increment":3}' in events[0]
    started = parse(events)[0]
    assert started["time_control"] == {"kind": "fischer", "base": 300, "increment": 3}
    assert started["left"] == [300, 300]


async def test_unclocked_events_are_unchanged(store: Store) -> None:
    a = await store.matches.seek("plain", "1", None, now())
    b = await store.matches.seek("plain", "1", None, now())
    await start(store, a)
    _, events = await store.matches.poll(a.match, None, 0, now())
    x = a if parse(events)[0]["first"] == a.seat else b
    await store.matches.act(x.match, x.token, move(1, "e4"), now())
    _, events = await store.matches.poll(a.match, None, 0, now())
    assert b"left" not in b"".join(events) and b"time_control" not in events[0]
    assert (await store.matches.info(a.match)).clock is None


async def test_fischer_charges_the_mover_from_its_turns_start_and_adds_the_increment(
    store: Store,
) -> None:
    t = now()
    x, o = await clocked(store, FISCHER, t)
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 12.5)
    await store.matches.act(o.match, o.token, move(2, "e5"), t + 32.5)
    await store.matches.act(x.match, x.token, Action("pass", 3), t + 33.75)
    _, events = await store.matches.poll(x.match, None, 1, t + 34)
    assert [event["left"] for event in parse(events)] == [290.5, 283.0, 292.25]
    assert events[0].endswith(b',"left":290.500}')
    info = await store.matches.info(x.match)
    assert info.clock is not None and info.turn == o.seat
    left = info.clock.left_at(info.turn, t + 40.75)
    assert (left[x.seat], left[o.seat]) == (292.25, 276.0)


async def test_deadline_gives_each_turn_its_own_time(store: Store) -> None:
    t = now()
    x, o = await clocked(store, DEADLINE, t)
    await store.matches.act(x.match, x.token, move(1, "a"), t + 50)
    await store.matches.act(o.match, o.token, move(2, "b"), t + 109)
    await store.matches.act(x.match, x.token, move(3, "c"), t + 168.9)
    _, events = await store.matches.poll(x.match, None, 1, t + 169)
    assert [event["left"] for event in parse(events)] == [10.0, 1.0, 0.1]
    info = await store.matches.info(x.match)
    assert info.clock is not None
    left = info.clock.left_at(info.turn, t + 170)
    assert (left[x.seat], left[o.seat]) == (60.0, 58.9)


async def test_reaper_ends_a_match_whose_clock_ran_out(store: Store) -> None:
    t = now()
    x, o = await clocked(store, BLITZ, t)
    assert await store.matches.reap(t + 4.9) == 0
    assert await store.matches.reap(t + 5.5) == 1
    _, events = await store.matches.poll(x.match, None, 1, t + 6)
    assert parse(events) == [{"seq": 2, "type": "ended", "reason": "timeout", "seat": x.seat}]
    await expect_error(
        "match/finished", store.matches.act(o.match, o.token, move(2, "late"), t + 6)
    )
    # The match's clock reads none left for the seat whose time ran out, the other's kept.
    info = await store.matches.info(x.match)
    assert info.clock is not None and info.turn is None
    left = info.clock.left_at(info.turn, t + 7)
    assert (left[x.seat], left[o.seat]) == (0.0, 5.0)


async def test_the_store_counts_its_endings_by_reason_timeouts_among_them(store: Store) -> None:
    t = now()
    assert await store.matches.endings() == {}
    for _ in range(2):
        await clocked(store, BLITZ, t)
    x, _ = await clocked(store, FISCHER, t)
    await store.matches.act(x.match, x.token, Action("resign"), t + 1)
    assert await store.matches.reap(t + 6) == 2
    assert await store.matches.endings() == {"timeout": 2, "resigned": 1}
    assert (await store.matches.counts())[Status.FINISHED] == 3


async def test_reaper_ends_the_match_after_a_move_reset_the_deadline(store: Store) -> None:
    t = now()
    x, o = await clocked(store, BLITZ, t)
    await store.matches.act(x.match, x.token, move(1, "a"), t + 4)
    assert await store.matches.reap(t + 5.5) == 0
    assert await store.matches.reap(t + 9.5) == 1
    _, events = await store.matches.poll(x.match, None, 2, t + 10)
    assert parse(events)[0] == {"seq": 3, "type": "ended", "reason": "timeout", "seat": o.seat}


async def test_a_move_after_the_time_ran_out_is_refused_and_ends_the_match(
    store: Store,
) -> None:
    t = now()
    x, _ = await clocked(store, BLITZ, t)
    late = store.matches.act(x.match, x.token, move(1, "late"), t + 5.001)
    error = await expect_error("match/finished", late)
    assert "ran out of time" in error.message
    _, events = await store.matches.poll(x.match, None, 1, t + 6)
    assert parse(events) == [{"seq": 2, "type": "ended", "reason": "timeout", "seat": x.seat}]
    assert await store.matches.reap(t + 6) == 0
    info = await store.matches.info(x.match)
    assert info.clock is not None and info.clock.left_at(info.turn, t + 7)[x.seat] == 0.0


async def test_resign_after_the_time_ran_out_finds_the_match_ended_by_timeout(
    store: Store,
) -> None:
    t = now()
    x, o = await clocked(store, BLITZ, t)
    await expect_error(
        "match/finished", store.matches.act(o.match, o.token, Action("resign"), t + 5.2)
    )
    _, events = await store.matches.poll(x.match, None, 1, t + 6)
    assert parse(events) == [{"seq": 2, "type": "ended", "reason": "timeout", "seat": x.seat}]


async def test_a_move_at_the_last_millisecond_is_in_time(store: Store) -> None:
    t = now()
    x, _ = await clocked(store, BLITZ, t)
    await store.matches.act(x.match, x.token, move(1, "just"), t + 5)
    _, events = await store.matches.poll(x.match, None, 1, t + 5)
    assert parse(events)[0]["left"] == 0


async def test_reaper_ends_a_deadline_match_whose_turn_ran_out(store: Store) -> None:
    t = now()
    x, o = await clocked(store, TimeControl("deadline", 10), t)
    await store.matches.act(x.match, x.token, move(1, "a"), t + 9)
    await store.matches.poll(o.match, o.token, 0, t + 9)
    assert await store.matches.reap(t + 19) == 0
    assert await store.matches.reap(t + 19.5) == 1
    _, events = await store.matches.poll(x.match, None, 2, t + 19.5)
    assert parse(events) == [{"seq": 3, "type": "ended", "reason": "timeout", "seat": o.seat}]


async def test_clocks_stop_while_a_game_over_move_waits_for_its_confirm(store: Store) -> None:
    t = now()
    x, o = await clocked(store, BLITZ, t)
    await store.matches.act(x.match, x.token, move(1, "mate", end=True), t + 1)
    assert await store.matches.reap(t + 9) == 0
    await store.matches.act(o.match, o.token, Action("confirm", 2), t + 9.5)
    _, events = await store.matches.poll(x.match, None, 2, t + 9.5)
    assert parse(events)[0]["reason"] == "agreed"


@pytest.mark.parametrize("control", [FISCHER, DEADLINE])
async def test_info_names_the_control_and_the_time_left(store: Store, control: TimeControl) -> None:
    t = now()
    x, o = await clocked(store, control, t)
    info = await store.matches.info(x.match)
    assert info.clock is not None and info.clock.control == control
    left = info.clock.left_at(info.turn, t + 7)
    assert (left[x.seat], left[o.seat]) == (control.base - 7, control.base)


async def test_rematch_keeps_the_control(store: Store) -> None:
    t = now()
    x, o = await clocked(store, FISCHER, t)
    await store.matches.act(x.match, x.token, Action("resign"), t + 1)
    await store.rematches.step(x.match, x.token, "offer", t + 2)
    again = await store.rematches.step(o.match, o.token, "offer", t + 2)
    assert again.match is not None
    _, events = await store.matches.poll(again.match, None, 0, t + 3)
    assert parse(events)[0]["time_control"] == FISCHER.as_dict()
    info = await store.matches.info(again.match)
    assert info.clock is not None and info.clock.control == FISCHER
    assert info.clock.left_at(info.turn, t + 12) == (
        (290.0, 300.0) if info.turn == 0 else (300.0, 290.0)
    )
