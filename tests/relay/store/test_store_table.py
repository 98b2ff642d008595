"""The table around a match (relay.core.table), run unchanged against every store: names,
presence, chat, draw offers, takebacks, claims against a staller, and seeks dropped once
their seeker is gone."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest

from relay import Action, MemoryStore, Status, Store, Ticket
from relay.core.clock import TimeControl
from relay.core.table import AWAY, CHAT_KEEP
from relay.core.text_policy import skeletons
from tests.relay.conftest import SETTINGS, STORE_KINDS
from tests.relay.store.calls import expect_error, move, mover, now, parse, start
from tests.support.redis_cluster import fresh_cluster_store
from tests.support.redis_server import fresh_redis_store

HOLD = SETTINGS.hold


async def playing(store: Store, **names: str) -> tuple[Ticket, Ticket]:
    """Pairs two named seekers, the match started (seat 0 polls again); returns (seat to
    move, the other)."""
    a = await store.matches.seek("xand0", "1", None, now(), name=names.get("a"))
    b = await store.matches.seek("xand0", "1", None, now(), name=names.get("b"))
    await start(store, a)
    return await mover(store, a, b)


async def events(store: Store, ticket: Ticket, after: int = 0) -> list[dict[str, object]]:
    """Returns the match's events above after, as JSON."""
    return parse((await store.matches.poll(ticket.match, None, after, now()))[1])


# -- names ---------------------------------------------------------------------------------


async def test_names_are_kept_per_seat_and_follow_a_rematch(store: Store) -> None:
    a = await store.matches.seek("xand0", "1", None, now(), name="Ann")
    b = await store.matches.seek("xand0", "1", None, now(), name="Bö <b>")
    assert (await store.matches.info(a.match)).names == ("Ann", "Bö <b>")
    _, table = await store.tables.read(a.match, None, 0, now())
    assert table.names == ("Ann", "Bö <b>")
    await start(store, a)
    await store.matches.act(a.match, a.token, Action("resign"), now())
    await store.rematches.step(a.match, a.token, "offer", now())
    accepted = await store.rematches.step(b.match, b.token, "offer", now())
    assert accepted.match is not None
    assert (await store.matches.info(accepted.match)).names == ("Ann", "Bö <b>")


async def test_a_names_look_is_held_by_the_key_that_shows_it_for_a_while(store: Store) -> None:
    ann, bob = "a" * 43, "b" * 43
    looks = skeletons("BOB")
    t = now()
    assert await store.players.claim_name(looks, ann, t)
    assert await store.players.claim_name(skeletons("bob"), ann, t + 1)  # the holder again: kept
    # Another key, or a seeker without one, may not show a name that looks the same.
    assert not await store.players.claim_name(skeletons("\u0412\u041e\u0412"), bob, t + 2)
    assert not await store.players.claim_name(skeletons("B0B"), None, t + 2)
    assert await store.players.claim_name(skeletons("Rob"), bob, t + 2)
    assert await store.players.claim_name(skeletons("Ann"), None, t + 2)


@pytest.mark.parametrize("kind", STORE_KINDS)
async def test_a_names_look_unused_for_the_hold_is_free_again(
    request: pytest.FixtureRequest, kind: str
) -> None:
    settings = dataclasses.replace(SETTINGS, name_hold=0.3)
    store: Store
    if kind == "memory":
        store = MemoryStore(settings)
    elif kind == "redis":
        store = await fresh_redis_store(request, settings)
    else:
        store = await fresh_cluster_store(request, settings)
    try:
        looks = skeletons("Zed")
        assert await store.players.claim_name(looks, "a" * 43, time.time())
        assert not await store.players.claim_name(looks, "b" * 43, time.time())
        await asyncio.sleep(0.5)  # Redis expires a binding in its own time
        assert await store.players.claim_name(looks, "b" * 43, time.time())
    finally:
        await store.close()


async def test_a_seat_without_a_name_reads_none(store: Store) -> None:
    x, _ = await playing(store, a="Ann")
    assert (await store.matches.info(x.match)).names == ("Ann", None)


# -- presence ------------------------------------------------------------------------------


async def test_a_seat_whose_client_left_is_away_then_back_at_its_next_poll(store: Store) -> None:
    x, y = await playing(store)
    start = now()
    await store.matches.poll(x.match, y.token, 1, start)
    _, table = await store.tables.read(x.match, None, 0, start)
    version = table.version
    assert table.away == (None, None)
    # y's held poll ends with its client gone; a moment later it is not yet shown away.
    await store.matches.left(x.match, y.token, start, start + 1)
    await store.matches.reap(start + 1 + AWAY / 2)
    assert (await store.tables.read(x.match, None, 0, start + 2))[1].away == (None, None)
    await store.matches.reap(start + 1 + AWAY + 0.5)
    _, table = await store.tables.read(x.match, x.token, 0, start + 5)
    assert table.version > version
    away = table.away[y.seat]
    assert away is not None and abs(away - (start + 1)) < 0.01
    assert table.away[x.seat] is None
    # It abandons a grace period after its last poll began, unless it comes back.
    abandon = table.abandon_at[y.seat]
    assert abandon is not None and abs(abandon - (start + SETTINGS.grace)) < 0.01
    await store.matches.poll(x.match, y.token, 1, start + 6)
    _, back = await store.tables.read(x.match, None, 0, start + 6)
    assert back.away == (None, None) and back.version > table.version


async def test_a_leaving_client_is_not_counted_when_its_seat_polled_since(store: Store) -> None:
    x, y = await playing(store)
    start = now()
    await store.matches.poll(x.match, y.token, 1, start)
    # A reload: the new page polls before the old page's connection is seen closing.
    await store.matches.poll(x.match, y.token, 1, start + 0.5)
    await store.matches.left(x.match, y.token, start, start + 0.6)
    await store.matches.reap(start + 0.6 + AWAY + 1)
    assert (await store.tables.read(x.match, None, 0, start + 5))[1].away == (None, None)


async def test_a_seat_that_begins_no_poll_for_the_hold_is_away(store: Store) -> None:
    x, y = await playing(store)
    start = now()
    await store.matches.poll(x.match, x.token, 1, start + HOLD)
    await store.matches.reap(start + HOLD + AWAY + 1)
    _, table = await store.tables.read(x.match, None, 0, start + HOLD + AWAY + 1)
    assert table.away[x.seat] is None
    assert table.away[y.seat] is not None


async def test_a_table_aware_wait_wakes_at_a_table_change_and_at_an_event(store: Store) -> None:
    x, y = await playing(store)
    _, _, version = await store.tables.poll(x.match, None, 1, now())
    assert version == (await store.tables.read(x.match, None, 0, now()))[1].version
    waiting = asyncio.ensure_future(store.matches.wait(x.match, 1, 5.0, version))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    await store.tables.chat(x.match, y.token, "hello", now())
    assert await asyncio.wait_for(waiting, 2.0) == ([], True)
    _, _, newer = await store.tables.poll(x.match, None, 1, now())
    assert newer > version
    waiting = asyncio.ensure_future(store.matches.wait(x.match, 1, 5.0, newer))
    await asyncio.sleep(0.2)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    found, changed = await asyncio.wait_for(waiting, 2.0)
    assert (parse(found)[0]["move"], changed) == ("11", False)
    started = asyncio.get_running_loop().time()
    assert await store.matches.wait(x.match, 2, 0.3, newer) == ([], False)
    assert 0.25 < asyncio.get_running_loop().time() - started < 2.0


# -- the waiting room ----------------------------------------------------------------------


async def test_a_seek_whose_seeker_left_is_dropped_and_never_paired(store: Store) -> None:
    start = now()
    ghost = await store.matches.seek("xand0", "1", None, start)
    await store.matches.poll(ghost.match, ghost.token, 0, start)
    await store.matches.left(ghost.match, ghost.token, start, start + 1)
    later = start + 1 + SETTINGS.seek_grace + 0.5
    await store.matches.reap(later)
    await expect_error("match/expired", store.matches.info(ghost.match))
    fresh = await store.matches.seek("xand0", "1", None, later)
    assert fresh.match != ghost.match and fresh.seat == 0


async def test_a_seek_is_not_paired_past_its_seek_grace_even_before_a_reap(store: Store) -> None:
    start = now()
    ghost = await store.matches.seek("xand0", "1", None, start)
    await store.matches.poll(ghost.match, ghost.token, 0, start)
    await store.matches.left(ghost.match, ghost.token, start, start + 1)
    fresh = await store.matches.seek("xand0", "1", None, start + 1 + SETTINGS.seek_grace + 0.5)
    assert fresh.match != ghost.match and fresh.seat == 0


async def test_a_seeker_that_polls_again_keeps_its_seek(store: Store) -> None:
    start = now()
    seeker = await store.matches.seek("xand0", "1", None, start)
    await store.matches.poll(seeker.match, seeker.token, 0, start)
    await store.matches.left(seeker.match, seeker.token, start, start + 1)
    await store.matches.poll(seeker.match, seeker.token, 0, start + 2)
    later = start + 2 + SETTINGS.seek_grace + 1
    await store.matches.reap(later)
    joined = await store.matches.seek("xand0", "1", None, later)
    assert (joined.match, joined.seat) == (seeker.match, 1)


# -- chat ----------------------------------------------------------------------------------


async def test_chat_lines_are_numbered_kept_as_text_and_read_above_a_cursor(store: Store) -> None:
    x, y = await playing(store)
    text = '<script>alert("x")</script> ☃ 𝄞'
    assert await store.tables.chat(x.match, x.token, text, now()) == 1
    assert await store.tables.chat(x.match, y.token, "gg", now()) == 2
    _, table = await store.tables.read(x.match, None, 0, now())
    assert [(line.n, line.seat, line.text, line.at) for line in table.chat] == [
        (1, x.seat, text, 1),
        (2, y.seat, "gg", 1),
    ]
    _, table = await store.tables.read(x.match, None, 1, now())
    assert [line.n for line in table.chat] == [2]


async def test_the_same_line_sent_again_is_said_once(store: Store) -> None:
    x, _ = await playing(store)
    said = now()
    assert await store.tables.chat(x.match, x.token, "hi", said) == 1
    assert await store.tables.chat(x.match, x.token, "hi", said + 1) == 1
    assert await store.tables.chat(x.match, x.token, "hi", said + 60) == 2
    await store.matches.act(x.match, x.token, move(1, "11"), said + 61)
    assert await store.tables.chat(x.match, x.token, "hi", said + 61) == 3


async def test_chat_is_kept_after_the_end_refused_while_waiting_and_bounded(store: Store) -> None:
    seeker = await store.matches.seek("dots", "1", None, now())
    await expect_error(
        "match/not_started", store.tables.chat(seeker.match, seeker.token, "hi", now())
    )
    x, y = await playing(store)
    await store.matches.act(x.match, x.token, Action("resign"), now())
    t = now()
    assert await store.tables.chat(x.match, y.token, "gg", t) == 1
    pace = 60 / SETTINGS.chat_per_minute
    for n in range(2, CHAT_KEEP + 1):  # at the pace a seat may post at
        assert await store.tables.chat(x.match, y.token, f"line {n}", t + n * pace) == n
    await expect_error("chat/full", store.tables.chat(x.match, x.token, "one more", now()))
    await expect_error("auth/bad_token", store.tables.chat(x.match, "x" * 43, "hi", now()))


async def test_a_seat_chats_at_its_pace_in_the_store_whichever_key_it_writes_with(
    store: Store,
) -> None:
    a = await store.matches.seek("xand0", "1", None, now(), player="p" * 43)
    b = await store.matches.seek("xand0", "1", None, now())
    await start(store, a)
    x, y = await mover(store, a, b)
    t = now()
    most = SETTINGS.chat_per_minute
    for n in range(1, most + 1):  # a burst of a minute's lines, half with the player key
        key = "p" * 43 if n % 2 and x is a else x.token
        assert await store.tables.chat(x.match, key, f"line {n}", t) == n
    error = await expect_error("chat/too_fast", store.tables.chat(x.match, x.token, "more", t))
    assert error.status == 429 and error.retry_after is not None
    assert abs(error.retry_after - 60 / most) < 0.01
    # The partner's lines are its own; the seat's next is let through once its time comes.
    assert await store.tables.chat(x.match, y.token, "hi", t) == most + 1
    assert await store.tables.chat(x.match, x.token, "more", t + 60 / most) == most + 2


async def test_offers_and_withdrawals_are_paced_per_seat_but_declines_are_not(
    store: Store,
) -> None:
    x, y = await playing(store)
    t = now()
    most = SETTINGS.offers_per_minute
    for _ in range(most // 2):  # a burst of offers and withdrawals
        await store.tables.offer(x.match, x.token, "draw", 1, t)
        await store.tables.decline(x.match, x.token, t)
    error = await expect_error("offer/too_fast", store.tables.offer(x.match, x.token, "draw", 1, t))
    assert error.status == 429 and error.retry_after is not None and error.retry_after > 0
    # Nothing changed: no offer stands, and the partner is paced apart.
    assert (await store.tables.read(x.match, None, 0, t))[1].offer.state == "withdrawn"  # type: ignore[union-attr]
    # The partner offers (paced apart), and the seat past its pace may still decline it.
    await store.tables.offer(x.match, y.token, "draw", 1, t)
    table = await store.tables.decline(x.match, x.token, t)
    assert table.offer is not None and table.offer.state == "declined"
    await store.matches.act(x.match, x.token, move(1, "11"), t)  # a move: offers may be made anew
    table = await store.tables.offer(x.match, x.token, "draw", 2, t + 60 / most)
    assert table.offer is not None and table.offer.by == x.seat


# -- draw offers ---------------------------------------------------------------------------


async def test_an_accepted_draw_ends_the_match_drawn(store: Store) -> None:
    x, y = await playing(store)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    table = await store.tables.offer(x.match, x.token, "draw", 2, now())
    assert table.offer is not None
    assert (table.offer.kind, table.offer.by, table.offer.at, table.offer.state) == (
        "draw", x.seat, 2, "offered",
    )  # fmt: skip
    # Repeating it changes nothing; the offerer cannot accept its own offer.
    assert (await store.tables.offer(x.match, x.token, "draw", 2, now())).version == table.version
    await expect_error(
        "offer/none", store.matches.act(x.match, x.token, Action("accept", 2), now())
    )
    assert await store.matches.act(x.match, y.token, Action("accept", 2), now()) == 3
    # An acceptance sent again is answered the same.
    assert await store.matches.act(x.match, y.token, Action("accept", 2), now()) == 3
    assert (await events(store, x, 2)) == [
        {"seq": 3, "type": "ended", "reason": "drawn", "seat": y.seat}
    ]
    assert (await store.matches.info(x.match)).status is Status.FINISHED
    offer = (await store.tables.read(x.match, None, 0, now()))[1].offer
    assert offer is not None and offer.state == "accepted"


async def test_a_declined_draw_cannot_be_offered_again_until_the_log_moves(store: Store) -> None:
    x, y = await playing(store)
    await store.tables.offer(x.match, y.token, "draw", 1, now())
    declined = await store.tables.decline(x.match, x.token, now())
    assert declined.offer is not None and declined.offer.state == "declined"
    await expect_error("offer/declined", store.tables.offer(x.match, y.token, "draw", 1, now()))
    await expect_error(
        "offer/none", store.matches.act(x.match, x.token, Action("accept", 1), now())
    )
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    again = await store.tables.offer(x.match, y.token, "draw", 2, now())
    assert again.offer is not None and again.offer.state == "offered"


async def test_an_offer_lapses_when_the_log_moves_and_can_be_withdrawn(store: Store) -> None:
    x, y = await playing(store)
    await store.tables.offer(x.match, y.token, "draw", 1, now())
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    lapsed = (await store.tables.read(x.match, None, 0, now()))[1].offer
    assert lapsed is not None and lapsed.state == "lapsed"
    await expect_error(
        "offer/none", store.matches.act(x.match, x.token, Action("accept", 2), now())
    )
    await store.tables.offer(x.match, y.token, "draw", 2, now())
    await expect_error("offer/pending", store.tables.offer(x.match, x.token, "takeback", 2, now()))
    withdrawn = await store.tables.decline(x.match, y.token, now())
    assert withdrawn.offer is not None and withdrawn.offer.state == "withdrawn"
    await expect_error("turn/stale", store.tables.offer(x.match, y.token, "draw", 1, now()))


async def test_offers_are_made_only_in_play(store: Store) -> None:
    x, y = await playing(store)
    await store.matches.act(x.match, x.token, move(1, "11", end=True), now())
    await expect_error("offer/not_playing", store.tables.offer(x.match, y.token, "draw", 2, now()))


# -- takebacks -----------------------------------------------------------------------------


async def test_a_takeback_of_a_move_and_its_reply_gives_the_asker_the_turn(store: Store) -> None:
    x, y = await playing(store)
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    await store.matches.act(x.match, y.token, move(2, "00"), now())
    table = await store.tables.offer(x.match, x.token, "takeback", 3, now())
    assert table.offer is not None and table.offer.count == 2
    assert await store.matches.act(x.match, y.token, Action("accept", 3), now()) == 4
    assert await events(store, x, 3) == [{"seq": 4, "type": "undo", "seat": x.seat, "count": 2}]
    info = await store.matches.info(x.match)
    assert (info.status, info.turn) == (Status.PLAYING, x.seat)
    # Play goes on from the position before the move taken back.
    assert await store.matches.act(x.match, x.token, move(4, "22"), now()) == 5
    # y's move was taken back: y has none to take back until it moves again.
    await expect_error("takeback/none", store.tables.offer(x.match, y.token, "takeback", 5, now()))
    await store.matches.act(x.match, y.token, move(5, "01"), now())
    # y's own move taken back alone (it is x's turn now): one move.
    table = await store.tables.offer(x.match, y.token, "takeback", 6, now())
    assert table.offer is not None and table.offer.count == 1
    await store.tables.decline(x.match, x.token, now())
    await expect_error(
        "offer/none", store.matches.act(x.match, x.token, Action("accept", 6), now())
    )


async def test_nothing_to_take_back_at_the_start(store: Store) -> None:
    x, y = await playing(store)
    await expect_error("takeback/none", store.tables.offer(x.match, x.token, "takeback", 1, now()))
    await expect_error("takeback/none", store.tables.offer(x.match, y.token, "takeback", 1, now()))
    await store.matches.act(x.match, x.token, move(1, "11"), now())
    # y has made no move: asking means its (no) move and x's reply.
    await expect_error("takeback/none", store.tables.offer(x.match, y.token, "takeback", 2, now()))
    await store.tables.offer(x.match, x.token, "takeback", 2, now())
    await store.matches.act(x.match, y.token, Action("accept", 2), now())
    # The undone move does not count: nothing of x's is left to take back.
    await expect_error("takeback/none", store.tables.offer(x.match, x.token, "takeback", 3, now()))


async def test_a_takeback_with_a_clock_charges_the_seat_to_move(store: Store) -> None:
    control = TimeControl("fischer", 60, 2)
    t = now()
    a = await store.matches.seek("xand0", "1", None, t, control=control)
    b = await store.matches.seek("xand0", "1", None, t, control=control)
    await start(store, a, at=t)
    x, y = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "11"), t + 10)
    await store.tables.offer(x.match, x.token, "takeback", 2, t + 11)
    await store.matches.act(x.match, y.token, Action("accept", 2), t + 15)
    undo = (await events(store, x, 2))[0]
    left = undo["left"]
    assert isinstance(left, list)
    # x used 10 s and got 2 back (52); y, to move, is charged its 5 s (55).
    assert (left[x.seat], left[y.seat]) == (52.0, 55.0)
    info = await store.matches.info(x.match)
    assert info.turn == x.seat and info.clock is not None


# -- claims against a staller --------------------------------------------------------------


async def test_a_staller_can_be_claimed_against_after_the_claim_time(store: Store) -> None:
    x, y = await playing(store)
    start = now()
    await store.matches.act(x.match, x.token, move(1, "11"), start)
    table = (await store.tables.read(x.match, None, 0, start))[1]
    assert table.claim_at is not None and abs(table.claim_at - (start + SETTINGS.claim_after)) < 1
    assert table.claim_after == SETTINGS.claim_after
    error = await expect_error(
        "claim/not_stalled", store.matches.act(x.match, x.token, Action("claim", 2), start + 10)
    )
    assert "claim in" in error.message
    await expect_error(
        "claim/not_stalled", store.matches.act(x.match, y.token, Action("claim", 2), start + 10)
    )
    late = start + SETTINGS.claim_after + 1
    assert await store.matches.act(x.match, x.token, Action("claim", 2), late) == 3
    assert await events(store, x, 2) == [
        {"seq": 3, "type": "ended", "reason": "stalled", "seat": y.seat}
    ]


async def test_no_claim_in_a_match_with_a_clock(store: Store) -> None:
    control = TimeControl("fischer", 60000, 0)
    a = await store.matches.seek("xand0", "1", None, now(), control=control)
    b = await store.matches.seek("xand0", "1", None, now(), control=control)
    await start(store, a)
    x, y = await mover(store, a, b)
    table = (await store.tables.read(x.match, None, 0, now()))[1]
    assert table.claim_at is None and table.claim_after is None
    await expect_error(
        "claim/not_stalled", store.matches.act(x.match, y.token, Action("claim", 1), now() + 1000)
    )


async def test_a_chat_cursor_past_any_chat_reads_no_line(store: Store) -> None:
    x, y = await playing(store)
    await store.tables.chat(x.match, y.token, "hi", now())
    _, table = await store.tables.read(x.match, None, 999_999_999_999_999_998, now())
    assert table.chat == () and table.version > 1


@pytest.mark.parametrize("kind", STORE_KINDS)
async def test_a_whole_burst_of_chat_passes_at_a_pace_whose_steps_round(
    kind: str, request: pytest.FixtureRequest
) -> None:
    # 14 a minute: the due time, a sum of 14 steps of 60/14 s at today's epoch time, drifts
    # from 13 steps multiplied by microseconds; that drift must not refuse the 14th line.
    settings = dataclasses.replace(SETTINGS, chat_per_minute=14)
    if kind == "memory":
        store: Store = MemoryStore(settings)
    elif kind == "redis":
        store = await fresh_redis_store(request, settings)
    else:
        store = await fresh_cluster_store(request, settings)
    try:
        x, _ = await playing(store)
        t = 1_800_000_000.0
        for n in range(1, 15):
            assert await store.tables.chat(x.match, x.token, f"line {n}", t) == n
        await expect_error("chat/too_fast", store.tables.chat(x.match, x.token, "one more", t))
    finally:
        await store.close()
