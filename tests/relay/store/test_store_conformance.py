"""The store's behaviour, run unchanged against every store implementation."""

from __future__ import annotations

import asyncio
import time

from relay import Action, RelayError, Status, Store
from relay.core.clock import TimeControl
from tests.relay.conftest import SETTINGS
from tests.relay.store.calls import (
    FISCHER,
    expect_error,
    move,
    mover,
    now,
    pair,
    parse,
    start,
    whole_now,
)
from tests.support.waits import waited

GRACE = SETTINGS.grace
PAIR_WINDOW = SETTINGS.pair_window


# -- pairing -------------------------------------------------------------------------------


async def test_two_seekers_of_one_game_are_paired(store: Store) -> None:
    a, b = await pair(store)
    assert a.token != b.token
    _, events = await store.matches.poll(a.match, a.token, 0, now())
    started = parse(events)
    assert len(started) == 1
    assert started[0]["type"] == "started" and started[0]["seq"] == 1
    assert started[0]["first"] in (0, 1)
    info = await store.matches.info(a.match)
    assert info.status is Status.PLAYING and info.turn == started[0]["first"]
    assert (info.game, info.version, info.room, info.last) == ("xand0", "1", None, 1)


async def test_first_seeker_waits_until_a_second_arrives(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    seat, events = await store.matches.poll(a.match, a.token, 0, now())
    assert (seat, events) == (0, [])
    assert (await store.matches.info(a.match)).status is Status.WAITING


async def test_a_second_seeker_is_answered_at_once_and_play_starts_at_seat_0s_next_poll(
    store: Store,
) -> None:
    t = whole_now()
    a = await store.matches.seek("xand0", "1", None, t, control=FISCHER)
    b = await store.matches.seek("xand0", "1", None, t + 1, control=FISCHER)
    assert (b.match, b.seat) == (a.match, 1)
    # Paired, not started: no events and no turn, whoever reads it (seat 1 too).
    info = await store.matches.info(a.match)
    assert (info.status, info.turn, info.first, info.last) == (Status.WAITING, None, None, 0)
    assert await store.matches.poll(a.match, b.token, 0, t + 1) == (1, [])
    assert await store.matches.poll(a.match, None, 0, t + 1) == (None, [])
    await expect_error(
        "match/not_started", store.matches.act(a.match, b.token, move(0, "11"), t + 1)
    )
    # Seat 0 polls again: that poll starts play and answers the started event.
    seat, events = await store.matches.poll(a.match, a.token, 0, t + 2)
    started = parse(events)
    assert seat == 0 and [event["type"] for event in started] == ["started"]
    first = started[0]["first"]
    assert first in (0, 1)
    info = await store.matches.info(a.match)
    assert (info.status, info.turn, info.first, info.last) == (Status.PLAYING, first, first, 1)
    # The clocks started at that poll, not at the join.
    assert info.clock is not None
    left = info.clock.left_at(info.turn, t + 9)
    assert (left[first], left[1 - first]) == (FISCHER.base - 7, FISCHER.base)
    # Polling again starts nothing more.
    assert (await store.matches.poll(a.match, a.token, 0, t + 3))[1] == events


async def test_a_held_wait_of_the_waiting_seeker_ends_at_once_when_it_is_paired(
    store: Store,
) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    waiter = asyncio.create_task(store.matches.wait(a.match, 0, 10.0))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    sent = time.monotonic()
    b = await store.matches.seek("xand0", "1", None, now())
    assert (b.match, b.seat) == (a.match, 1)
    async with asyncio.timeout(2):
        assert await waiter == ([], False)
    # The probe that makes a live seeker poll again: answered well within a second.
    assert time.monotonic() - sent < 0.5
    assert (await store.matches.info(a.match)).status is Status.WAITING


async def test_a_pairing_whose_seat_0_never_polls_again_expires_unstarted(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", None, t)
    b = await store.matches.seek("xand0", "1", None, t)
    assert (b.match, b.seat) == (a.match, 1)
    assert await store.matches.reap(t + PAIR_WINDOW - 1) == 0
    assert (await store.matches.info(a.match)).status is Status.WAITING
    later = t + PAIR_WINDOW + 1
    assert await store.matches.reap(later) >= 1
    for ticket in (a, b):
        await expect_error("match/expired", store.matches.poll(a.match, ticket.token, 0, later))
    c = await store.matches.seek("xand0", "1", None, later)
    assert c.match != a.match and c.seat == 0


async def test_a_room_is_full_while_its_pair_waits_and_free_once_the_pair_lapses(
    store: Store,
) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", "lapse", t)
    await store.matches.seek("xand0", "1", "lapse", t)
    await expect_error("room/full", store.matches.seek("xand0", "1", "lapse", t + 1))
    # Seat 0 never polled again: past the pair window, even before a reap, the room is free.
    later = t + PAIR_WINDOW + 1
    c = await store.matches.seek("xand0", "1", "lapse", later)
    assert c.match != a.match and c.seat == 0
    await expect_error("match/expired", store.matches.poll(a.match, a.token, 0, later))


async def test_a_correspondence_pairing_starts_at_once(store: Store) -> None:
    t = whole_now()
    control = TimeControl("deadline", 600)
    a = await store.matches.seek("xand0", "1", None, t, control=control)
    b = await store.matches.seek("xand0", "1", None, t, control=control)
    assert (b.match, b.seat) == (a.match, 1)
    info = await store.matches.info(a.match)
    assert info.status is Status.PLAYING and info.last == 1 and info.turn in (0, 1)
    _, events = await store.matches.poll(a.match, None, 0, t + 1)
    started = parse(events)
    assert [event["type"] for event in started] == ["started"]
    assert started[0]["time_control"] == control.as_dict()
    # Nobody polls past the pair window: the match plays on, and seat 0's poll adds nothing.
    later = t + PAIR_WINDOW + 1
    assert await store.matches.reap(later) == 0
    assert (await store.matches.poll(a.match, a.token, 0, later))[1] == events


async def test_other_games_and_versions_are_not_paired(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    b = await store.matches.seek("xand0", "2", None, now())
    c = await store.matches.seek("connect4", "1", None, now())
    assert len({a.match, b.match, c.match}) == 3
    d = await store.matches.seek("xand0", "2", None, now())
    assert (d.match, d.seat) == (b.match, 1)


async def test_first_move_is_drawn_fairly(store: Store) -> None:
    firsts = []
    for _ in range(40):
        a, _b = await pair(store, game="coin")
        _, events = await store.matches.poll(a.match, None, 0, now())
        firsts.append(parse(events)[0]["first"])
    # 40 fair coin flips all landing alike has probability 2 * 2**-40.
    assert set(firsts) == {0, 1}


async def test_room_pairs_exactly_the_two_who_name_it(store: Store) -> None:
    public = await store.matches.seek("xand0", "1", None, now())
    a = await store.matches.seek("xand0", "1", "friday", now())
    assert a.match != public.match
    b = await store.matches.seek("xand0", "1", "friday", now())
    assert (b.match, b.seat) == (a.match, 1)
    await expect_error("room/full", store.matches.seek("xand0", "1", "friday", now()))
    await start(store, a)
    await expect_error("room/full", store.matches.seek("xand0", "1", "friday", now()))
    other = await store.matches.seek("connect4", "1", "friday", now())
    assert other.match != a.match


async def test_room_refuses_a_seeker_of_another_version(store: Store) -> None:
    await store.matches.seek("xand0", "1", "saturday", now())
    error = await expect_error(
        "room/version_mismatch", store.matches.seek("xand0", "2", "saturday", now())
    )
    assert "saturday" in error.message


async def test_room_is_free_again_after_its_match_ends(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", "sunday", now())
    await store.matches.seek("xand0", "1", "sunday", now())
    await start(store, a)
    await store.matches.act(a.match, a.token, Action("resign"), now())
    c = await store.matches.seek("xand0", "1", "sunday", now())
    assert c.match != a.match and c.seat == 0


async def test_repeated_seek_with_its_own_token_gets_the_same_ticket(store: Store) -> None:
    t = now()
    mine, theirs = "a" * 43, "b" * 43
    first = await store.matches.seek("reseek", "1", None, t, mine)
    assert (first.seat, first.token) == (0, mine)
    assert await store.matches.seek("reseek", "1", None, t + 1, mine) == first
    second = await store.matches.seek("reseek", "1", None, t + 1, theirs)
    assert (second.match, second.seat, second.token) == (first.match, 1, theirs)
    assert await store.matches.seek("reseek", "1", None, t + 2, theirs) == second
    assert await store.matches.seek("reseek", "1", None, t + 2, mine) == first
    seat, events = await store.matches.poll(first.match, mine, 0, t + 2)
    assert seat == 0 and parse(events)[0]["type"] == "started"
    assert (await store.matches.poll(first.match, theirs, 0, t + 2))[0] == 1
    # Another seeker, or the same token long after, is a new seek.
    later = await store.matches.seek("reseek", "1", None, t + GRACE + 5, mine)
    assert later.match != first.match and later.seat == 0


async def test_repeated_room_seek_with_its_own_token_is_not_room_full(store: Store) -> None:
    t = now()
    a = await store.matches.seek("reseek", "1", "den", t, "c" * 40)
    b = await store.matches.seek("reseek", "1", "den", t, "d" * 40)
    assert await store.matches.seek("reseek", "1", "den", t + 1, "d" * 40) == b
    assert await store.matches.seek("reseek", "1", "den", t + 1, "c" * 40) == a
    await expect_error("room/full", store.matches.seek("reseek", "1", "den", t + 1, "e" * 40))


async def test_waiting_matches_per_game_are_limited(store: Store) -> None:
    for index in range(SETTINGS.max_waiting):
        await store.matches.seek("rooms", "1", f"room{index}", now())
    error = await expect_error("limit/waiting", store.matches.seek("rooms", "1", "one-more", now()))
    assert error.retry_after is not None and error.retry_after > 0
    await store.matches.seek("other", "1", "room0", now())


# -- reading -------------------------------------------------------------------------------


async def test_every_reader_sees_the_same_log_and_reads_repeat(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    await store.matches.act(o.match, o.token, move(2, "00"), now())
    logs = [
        (await store.matches.poll(a.match, a.token, 0, now()))[1],
        (await store.matches.poll(a.match, b.token, 0, now()))[1],
        (await store.matches.poll(a.match, None, 0, now()))[1],
        (await store.matches.poll(a.match, None, 0, now()))[1],
    ]
    assert all(log == logs[0] for log in logs)
    assert [event["seq"] for event in parse(logs[0])] == [1, 2, 3]
    assert (await store.matches.poll(a.match, None, 2, now()))[1] == logs[0][2:]
    assert (await store.matches.poll(a.match, None, 3, now()))[1] == []
    await expect_error("match/behind", store.matches.poll(a.match, None, 99, now()))


async def test_poll_names_the_seat_of_the_token(store: Store) -> None:
    a, b = await pair(store)
    assert (await store.matches.poll(a.match, a.token, 0, now()))[0] == 0
    assert (await store.matches.poll(a.match, b.token, 0, now()))[0] == 1
    assert (await store.matches.poll(a.match, None, 0, now()))[0] is None


async def test_wrong_tokens_and_unknown_matches_are_refused(store: Store) -> None:
    a, _b = await pair(store)
    other, _ = await pair(store, game="connect4")
    await expect_error("auth/bad_token", store.matches.poll(a.match, "forged", 0, now()))
    await expect_error("auth/bad_token", store.matches.poll(a.match, other.token, 0, now()))
    await expect_error(
        "auth/bad_token", store.matches.act(a.match, other.token, move(1, "x"), now())
    )
    await expect_error(
        "auth/bad_token", store.matches.act(a.match, a.token[:-1], move(1, "x"), now())
    )
    await expect_error("match/unknown", store.matches.poll("no-such-match", None, 0, now()))
    await expect_error(
        "match/unknown", store.matches.act("no-such-match", a.token, move(1, "x"), now())
    )
    await expect_error("match/unknown", store.matches.info("no-such-match"))


async def test_a_read_past_the_logs_end_is_refused_as_behind(store: Store) -> None:
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "e4"), now())
    error = await expect_error("match/behind", store.matches.poll(a.match, a.token, 5, now()))
    assert "5" in error.message and "2" in error.message
    await expect_error("match/behind", store.matches.poll(a.match, None, 3, now()))
    await expect_error("match/behind", waited(store, a.match, 3, 5))
    # At the end itself, a read is simply empty.
    assert (await store.matches.poll(a.match, b.token, 2, now()))[1] == []


async def test_wait_returns_at_once_when_events_exist(store: Store) -> None:
    a, _ = await pair(store)
    async with asyncio.timeout(1):
        events = await waited(store, a.match, 0, 30)
    assert parse(events)[0]["type"] == "started"


async def test_wait_wakes_within_milliseconds_of_a_new_event(store: Store) -> None:
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    waiter = asyncio.create_task(waited(store, a.match, 1, 30))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    sent = time.monotonic()
    await store.matches.act(x.match, x.token, move(1, "21"), now())
    async with asyncio.timeout(2):
        events = await waiter
    woke = time.monotonic() - sent
    assert parse(events) == [{"seq": 2, "type": "move", "seat": x.seat, "move": "21", "end": False}]
    assert woke < 0.5


async def test_wait_answers_empty_when_its_time_is_up(store: Store) -> None:
    a, _ = await pair(store)
    started = time.monotonic()
    async with asyncio.timeout(3):
        assert await waited(store, a.match, 1, 0.2) == []
    # Not before its time, and late by no more than a tick of the store's clock.
    assert 0.19 <= time.monotonic() - started < 0.6


async def test_wait_of_a_waiting_seeker_wakes_when_the_match_starts(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    waiter = asyncio.create_task(waited(store, a.match, 0, 30))
    await asyncio.sleep(0.05)
    b = await store.matches.seek("xand0", "1", None, now())
    # The pairing answers the seeker's wait empty, so that it polls again; a wait held on the
    # match meanwhile (its partner's) wakes with the start that poll makes.
    async with asyncio.timeout(2):
        assert await waiter == []
    partner = asyncio.create_task(waited(store, b.match, 0, 30))
    await asyncio.sleep(0.05)
    assert not partner.done()
    await start(store, a)
    async with asyncio.timeout(2):
        assert parse(await partner)[0]["type"] == "started"


async def test_wake_all_answers_held_waits(store: Store) -> None:
    a, _ = await pair(store)
    waiters = [asyncio.create_task(waited(store, a.match, 1, 30)) for _ in range(3)]
    await asyncio.sleep(0.05)
    await store.wake_all()
    async with asyncio.timeout(2):
        assert await asyncio.gather(*waiters) == [[], [], []]


# -- moves and turns -----------------------------------------------------------------------


async def test_moves_alternate_and_arrive_byte_exact(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    texts = ["", "21", 'say "hi"\n\\', "\U0001f600 ünïcödé \u2028", '{"json": [1]}', "<b>&amp;</b>"]
    for index, text in enumerate(texts):
        seat = (x, o)[index % 2]
        seq = await store.matches.act(seat.match, seat.token, move(index + 1, text), now())
        assert seq == index + 2
    events = parse((await store.matches.poll(a.match, None, 1, now()))[1])
    assert [event["move"] for event in events] == texts
    assert [event["seat"] for event in events] == [x.seat, o.seat] * 3


async def test_out_of_turn_move_is_refused(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await expect_error("turn/not_yours", store.matches.act(o.match, o.token, move(1, "11"), now()))
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    await expect_error("turn/not_yours", store.matches.act(x.match, x.token, move(2, "22"), now()))
    assert (await store.matches.info(a.match)).last == 2


async def test_stale_after_is_refused(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await expect_error("turn/stale", store.matches.act(x.match, x.token, move(0, "11"), now()))
    await expect_error("turn/stale", store.matches.act(x.match, x.token, move(5, "11"), now()))
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    await expect_error("turn/stale", store.matches.act(o.match, o.token, move(1, "00"), now()))


async def test_repeated_move_is_applied_once_with_the_same_answer(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    assert await store.matches.act(x.match, x.token, move(1, "11"), now()) == 2
    assert await store.matches.act(x.match, x.token, move(1, "11"), now()) == 2
    await store.matches.act(o.match, o.token, move(2, "00"), now())
    assert await store.matches.act(x.match, x.token, move(1, "11"), now()) == 2
    await expect_error("turn/stale", store.matches.act(x.match, x.token, move(1, "12"), now()))
    assert (await store.matches.info(a.match)).last == 3


async def test_a_repeat_is_known_only_until_its_seat_writes_again(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    await store.matches.act(o.match, o.token, move(2, "00"), now())
    assert await store.matches.act(x.match, x.token, move(3, "12"), now()) == 4
    assert await store.matches.act(x.match, x.token, move(3, "12"), now()) == 4
    await expect_error("turn/stale", store.matches.act(x.match, x.token, move(1, "11"), now()))
    assert await store.matches.act(o.match, o.token, move(2, "00"), now()) == 3
    assert (await store.matches.info(a.match)).last == 4


async def test_concurrent_repeats_of_a_move_are_applied_once(store: Store) -> None:
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    answers = await asyncio.gather(
        *(store.matches.act(x.match, x.token, move(1, "11"), now()) for _ in range(8))
    )
    assert answers == [2] * 8
    events = parse((await store.matches.poll(a.match, None, 0, now()))[1])
    assert [event["type"] for event in events] == ["started", "move"]


async def test_two_different_moves_for_one_turn_accept_exactly_one(store: Store) -> None:
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    results = await asyncio.gather(
        *(store.matches.act(x.match, x.token, move(1, f"m{i}"), now()) for i in range(6)),
        return_exceptions=True,
    )
    accepted = [result for result in results if result == 2]
    refused = [result for result in results if isinstance(result, RelayError)]
    assert len(accepted) == 1 and len(refused) == 5
    assert all(error.code == "turn/stale" for error in refused)


async def test_pass_gives_the_turn_to_the_partner(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "3"), now())
    assert await store.matches.act(o.match, o.token, Action("pass", 2), now()) == 3
    assert (await store.matches.info(a.match)).turn == x.seat
    assert await store.matches.act(o.match, o.token, Action("pass", 2), now()) == 3
    await expect_error(
        "turn/not_yours", store.matches.act(o.match, o.token, Action("pass", 3), now())
    )
    assert await store.matches.act(x.match, x.token, move(3, "4"), now()) == 4
    events = parse((await store.matches.poll(a.match, None, 2, now()))[1])
    assert events[0] == {"seq": 3, "type": "pass", "seat": o.seat}


async def test_moves_before_the_partner_arrives_are_refused(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    await expect_error(
        "match/not_started", store.matches.act(a.match, a.token, move(0, "11"), now())
    )
    await expect_error(
        "match/not_started", store.matches.act(a.match, a.token, Action("resign"), now())
    )


# -- game over -----------------------------------------------------------------------------


async def test_end_move_agreed_by_the_partner(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "22", end=True), now())
    assert (await store.matches.info(a.match)).status is Status.ENDING
    await expect_error("match/ending", store.matches.act(o.match, o.token, move(2, "00"), now()))
    await expect_error(
        "turn/not_yours", store.matches.act(x.match, x.token, Action("confirm", 2), now())
    )
    assert await store.matches.act(o.match, o.token, Action("confirm", 2, agree=True), now()) == 3
    assert await store.matches.act(o.match, o.token, Action("confirm", 2, agree=True), now()) == 3
    events = parse((await store.matches.poll(a.match, None, 2, now()))[1])
    assert events == [{"seq": 3, "type": "ended", "reason": "agreed", "seat": o.seat}]
    assert (await store.matches.info(a.match)).status is Status.FINISHED


async def test_end_move_disputed_by_the_partner(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "22", end=True), now())
    await store.matches.act(o.match, o.token, Action("confirm", 2, agree=False), now())
    events = parse((await store.matches.poll(a.match, None, 2, now()))[1])
    assert events[0]["reason"] == "disputed" and events[0]["seat"] == o.seat


async def test_partner_pass_disputed_by_the_seat_to_move(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    assert await store.matches.act(o.match, o.token, Action("pass", 2), now()) == 3
    await expect_error(
        "match/not_ending", store.matches.act(x.match, x.token, Action("confirm", 3), now())
    )
    await expect_error(
        "turn/stale", store.matches.act(o.match, o.token, Action("confirm", 2, agree=False), now())
    )
    dispute = Action("confirm", 3, agree=False)
    assert await store.matches.act(x.match, x.token, dispute, now()) == 4
    assert await store.matches.act(x.match, x.token, dispute, now()) == 4
    events = parse((await store.matches.poll(a.match, None, 3, now()))[1])
    ended = {"seq": 4, "type": "ended", "reason": "disputed", "seat": x.seat, "at": 3}
    assert events == [ended]
    assert (await store.matches.info(a.match)).status is Status.FINISHED


async def test_own_pass_cannot_be_disputed(store: Store) -> None:
    a, b = await pair(store)
    x, _ = await mover(store, a, b)
    await store.matches.act(x.match, x.token, Action("pass", 1), now())
    dispute = Action("confirm", 2, agree=False)
    await expect_error("match/not_ending", store.matches.act(x.match, x.token, dispute, now()))


async def test_confirm_without_an_end_move_is_refused(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    await expect_error(
        "match/not_ending", store.matches.act(o.match, o.token, Action("confirm", 2), now())
    )


async def test_resign_ends_the_match_at_once(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    seq = await store.matches.act(o.match, o.token, Action("resign"), now())
    assert seq == 2
    assert await store.matches.act(o.match, o.token, Action("resign"), now()) == 2
    await expect_error(
        "match/finished", store.matches.act(x.match, x.token, Action("resign"), now())
    )
    await expect_error("match/finished", store.matches.act(x.match, x.token, move(2, "11"), now()))
    await expect_error(
        "match/finished", store.matches.act(x.match, x.token, Action("pass", 2), now())
    )
    events = parse((await store.matches.poll(a.match, None, 1, now()))[1])
    assert events == [{"seq": 2, "type": "ended", "reason": "resigned", "seat": o.seat}]
    info = await store.matches.info(a.match)
    assert info.status is Status.FINISHED and info.turn is None


# -- cancel, grace and expiry --------------------------------------------------------------


async def test_cancelled_seek_is_never_paired(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now())
    assert await store.matches.act(a.match, a.token, Action("cancel"), now()) == 0
    assert await store.matches.act(a.match, a.token, Action("cancel"), now()) == 0
    await expect_error("match/expired", store.matches.poll(a.match, a.token, 0, now()))
    b = await store.matches.seek("xand0", "1", None, now())
    assert b.match != a.match and b.seat == 0


async def test_started_match_cannot_be_cancelled(store: Store) -> None:
    a, _ = await pair(store)
    await expect_error(
        "match/started", store.matches.act(a.match, a.token, Action("cancel"), now())
    )


async def test_seeker_silent_for_the_grace_period_is_never_paired(store: Store) -> None:
    t = now()
    ghost = await store.matches.seek("xand0", "1", None, t)
    fresh = await store.matches.seek("xand0", "1", None, t + GRACE + 1)
    assert fresh.match != ghost.match and fresh.seat == 0
    await expect_error("match/expired", store.matches.poll(ghost.match, None, 0, t + GRACE + 1))


async def test_seeker_that_keeps_polling_is_paired(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", None, t)
    await store.matches.poll(a.match, a.token, 0, t + GRACE - 1)
    b = await store.matches.seek("xand0", "1", None, t + GRACE + 1)
    assert (b.match, b.seat) == (a.match, 1)


async def test_reap_drops_silent_seekers(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", "quiet", t)
    assert await store.matches.reap(t + GRACE / 2) == 0
    assert await store.matches.reap(t + GRACE + 1) >= 1
    await expect_error("match/expired", store.matches.poll(a.match, None, 0, t + GRACE + 1))
    b = await store.matches.seek("xand0", "1", "quiet", t + GRACE + 1)
    assert b.match != a.match and b.seat == 0


async def test_seat_silent_for_the_grace_period_abandons(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", None, t)
    b = await store.matches.seek("xand0", "1", None, t)
    await start(store, a, at=t)
    await store.matches.poll(a.match, a.token, 1, t + GRACE - 1)
    assert await store.matches.reap(t + GRACE - 0.5) == 0
    await store.matches.reap(t + GRACE + 1)
    events = parse((await store.matches.poll(a.match, None, 1, t + GRACE + 1))[1])
    assert events == [{"seq": 2, "type": "ended", "reason": "abandoned", "seat": b.seat}]
    assert (await store.matches.info(a.match)).status is Status.FINISHED


async def test_silent_partner_leaves_an_end_unconfirmed(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", None, t)
    b = await store.matches.seek("xand0", "1", None, t)
    await start(store, a, at=t)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "22", end=True), t)
    await store.matches.poll(a.match, x.token, 2, t + GRACE - 1)
    await store.matches.reap(t + GRACE + 1)
    events = parse((await store.matches.poll(a.match, None, 2, t + GRACE + 1))[1])
    assert events == [{"seq": 3, "type": "ended", "reason": "unconfirmed", "seat": o.seat}]


async def test_finished_match_is_readable_then_forgotten(store: Store) -> None:
    t = now()
    a = await store.matches.seek("xand0", "1", None, t)
    await store.matches.seek("xand0", "1", None, t)
    await start(store, a, at=t)
    await store.matches.act(a.match, a.token, Action("resign"), t)
    await store.matches.reap(t + SETTINGS.keep - 1)
    assert len((await store.matches.poll(a.match, None, 0, t + SETTINGS.keep - 1))[1]) == 2
    await store.matches.reap(t + SETTINGS.keep + 1)
    await expect_error("match/unknown", store.matches.poll(a.match, None, 0, t + SETTINGS.keep + 1))


async def test_counts_follow_the_matches(store: Store) -> None:
    await store.matches.seek("count", "1", None, now())
    a, _ = await pair(store, game="count2")
    c, _ = await pair(store, game="count3")
    await store.matches.act(c.match, c.token, Action("resign"), now())
    counts = await store.matches.counts()
    assert counts[Status.WAITING] == 1
    assert counts[Status.PLAYING] == 1
    assert counts[Status.FINISHED] == 1
    assert a.match != c.match


async def test_a_full_log_refuses_moves_and_passes_but_the_match_can_still_end(
    store: Store,
) -> None:
    a, b = await pair(store)
    first, second = await mover(store, a, b)
    seats = (first, second)
    most = SETTINGS.max_events
    for after in range(1, most):  # event 1 is 'started'; moves fill the log to the limit
        await store.matches.act(a.match, seats[(after - 1) % 2].token, move(after, "x"), now())
    to_move = seats[(most - 1) % 2]
    error = await expect_error(
        "match/too_long", store.matches.act(a.match, to_move.token, move(most, "y"), now())
    )
    assert str(most) in error.message and error.status == 409
    await expect_error(
        "match/too_long", store.matches.act(a.match, to_move.token, Action("pass", most), now())
    )
    # Nothing was written, and the match is still playing: a seat can resign it.
    assert (await store.matches.info(a.match)).last == most
    assert (
        await store.matches.act(a.match, seats[most % 2].token, Action("resign"), now()) == most + 1
    )
    _, events = await store.matches.poll(a.match, None, most, now())
    assert parse(events)[0]["type"] == "ended"


async def test_a_log_full_of_bytes_refuses_longer_moves_but_takes_shorter_ones(
    store: Store,
) -> None:
    a, b = await pair(store)
    first, second = await mover(store, a, b)
    seats = (first, second)
    most = SETTINGS.max_log_bytes
    # Each move of 98 characters takes 100 bytes as its JSON string: six fill the log.
    for after in range(1, 7):
        await store.matches.act(a.match, seats[(after - 1) % 2].token, move(after, "é" * 49), now())
    to_move = seats[0]
    error = await expect_error(
        "match/too_long", store.matches.act(a.match, to_move.token, move(7, "x"), now())
    )
    assert f"{most} bytes" in error.message and error.status == 409
    assert (await store.matches.info(a.match)).last == 7
    # A pass, a resignation, a game-ending move's settling: the match can still end.
    assert await store.matches.act(a.match, to_move.token, Action("pass", 7), now()) == 8
    assert await store.matches.act(a.match, to_move.token, Action("resign"), now()) == 9


async def test_a_game_ending_move_that_fills_the_log_can_still_be_confirmed(store: Store) -> None:
    a, b = await pair(store)
    first, second = await mover(store, a, b)
    seats = (first, second)
    most = SETTINGS.max_events
    for after in range(1, most):  # the last of these moves ends the game and fills the log
        ending = after == most - 1
        await store.matches.act(
            a.match, seats[(after - 1) % 2].token, move(after, "x", ending), now()
        )
    partner = seats[(most - 1) % 2]
    assert (
        await store.matches.act(a.match, partner.token, Action("confirm", most), now()) == most + 1
    )
    _, events = await store.matches.poll(a.match, None, most, now())
    assert parse(events)[0]["type"] == "ended" and parse(events)[0]["reason"] == "agreed"


async def test_seat_0s_wait_begun_after_the_pairing_ends_at_once_and_seat_1s_holds(
    store: Store,
) -> None:
    # Seat 0's held poll: its read (no events) came just before the join, its wait just
    # after. Were it to hold, the pair window (3 s) would pass and a live seeker be dropped.
    a = await store.matches.seek("xand0", "1", None, now())
    assert (await store.matches.poll(a.match, a.token, 0, now()))[1] == []
    b = await store.matches.seek("xand0", "1", None, now())
    began = time.monotonic()
    async with asyncio.timeout(10):
        waited_for = await store.matches.wait(a.match, 0, 5.0, None, True)
    assert waited_for.events == [] and time.monotonic() - began < 1.0
    # Seat 1's wait is not pairable: it holds until the start, rather than answering at once
    # again and again (a client polling in a loop).
    assert (await store.matches.poll(b.match, b.token, 0, now()))[1] == []
    held = asyncio.create_task(store.matches.wait(b.match, 0, 5.0))
    await asyncio.sleep(0.3)
    assert not held.done()
    await start(store, a)
    async with asyncio.timeout(5):
        assert parse((await held).events)[0]["type"] == "started"
