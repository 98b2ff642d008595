"""Correspondence play, run unchanged against every store implementation: per-move-deadline
matches that only their clock ends, player keys (a second key to a seat, and the list of a
key's matches) and the turn notices told to seats with a contact."""

from __future__ import annotations

from relay import Action, MemoryStore, Store
from relay.core.clock import TimeControl
from relay.core.model import hash_token, new_token
from relay.core.players import LISTED, listing
from relay.core.turns import TurnNotice
from tests.relay.conftest import SETTINGS
from tests.relay.store.calls import FISCHER, expect_error, listen, move, paired, parse, start
from tests.relay.store.calls import whole_now as now

DAY = 86400
THREE_DAYS = TimeControl("deadline", 3 * DAY)
MINUTES = TimeControl("deadline", 600)
ANN = "A" * 40
"""Player keys (any 32 to 128 URL-safe characters)."""
BOB = "B" * 40


async def test_a_correspondence_seat_that_never_polls_is_ended_only_by_its_clock(
    store: Store,
) -> None:
    t = now()
    x, _o = await paired(store, THREE_DAYS, t)
    # Neither seat polls for two days: far past the grace period, within the turn's time.
    assert await store.matches.reap(t + 2 * DAY) == 0
    assert (await store.matches.info(x.match)).status.value == "playing"
    assert await store.matches.reap(t + 3 * DAY + 1) == 1
    _, events = await store.matches.poll(x.match, None, 1, t + 3 * DAY + 1)
    assert parse(events) == [{"seq": 2, "type": "ended", "reason": "timeout", "seat": x.seat}]


async def test_moves_days_apart_keep_every_key_of_the_match(store: Store) -> None:
    t = now()
    x, o = await paired(store, THREE_DAYS, t)
    seats = [x, o]
    at = t
    for seq in range(1, 6):
        at += 2 * DAY + 3600  # two days and an hour between moves, nobody polling between
        assert await store.matches.reap(at) == 0
        mover = seats[(seq - 1) % 2]
        assert (
            await store.matches.act(mover.match, mover.token, move(seq, f"m{seq}"), at) == seq + 1
        )
    _, events = await store.matches.poll(x.match, x.token, 0, at + DAY)
    assert [event["type"] for event in parse(events)] == ["started"] + ["move"] * 5
    info = await store.matches.info(x.match)
    assert info.status.value == "playing" and info.last == 6
    assert info.clock is not None and info.clock.left_at(info.turn, at + DAY)[o.seat] == 2 * DAY


async def test_a_fischer_seat_that_stops_polling_still_abandons(store: Store) -> None:
    t = now()
    x, _ = await paired(store, FISCHER, t)
    assert await store.matches.reap(t + SETTINGS.grace + 1) == 1
    _, events = await store.matches.poll(x.match, None, 1, t + SETTINGS.grace + 1)
    assert parse(events)[0]["reason"] == "abandoned"


async def test_a_correspondence_seek_waits_out_its_per_move_time(store: Store) -> None:
    t = now()
    waiting = await store.matches.seek("corr", "1", None, t, None, MINUTES)
    assert await store.matches.reap(t + 300) == 0
    joined = await store.matches.seek("corr", "1", None, t + 300, None, MINUTES)
    assert joined.match == waiting.match and joined.seat == 1
    lapsing = await store.matches.seek("corr", "1", "r", t, None, MINUTES)
    assert await store.matches.reap(t + 599) == 0
    assert await store.matches.reap(t + 601) == 1
    await expect_error("match/expired", store.matches.info(lapsing.match))


async def test_a_correspondence_seek_repeated_within_its_per_move_time_keeps_its_seat(
    store: Store,
) -> None:
    t = now()
    for room in (None, "den"):
        token = new_token()
        first = await store.matches.seek("corr", "1", room, t, token, MINUTES)
        again = await store.matches.seek("corr", "1", room, t + 300, token, MINUTES)
        assert (again.match, again.seat) == (first.match, 0)
        other = await store.matches.seek("corr", "1", room, t + 301, None, MINUTES)
        assert (other.match, other.seat) == (first.match, 1)
        later = await store.matches.seek("corr", "1", room, t + 550, token, MINUTES)
        assert (later.match, later.seat) == (first.match, 0)


async def test_a_correspondence_game_over_move_waits_out_the_per_move_time(
    store: Store,
) -> None:
    t = now()
    x, o = await paired(store, MINUTES, t)
    await store.matches.act(x.match, x.token, move(1, "mate", end=True), t + 1)
    assert await store.matches.reap(t + 500) == 0
    assert await store.matches.reap(t + 602) == 1
    _, events = await store.matches.poll(x.match, None, 2, t + 602)
    assert parse(events)[0] == {"seq": 3, "type": "ended", "reason": "unconfirmed", "seat": o.seat}


async def test_a_player_key_is_a_second_key_to_its_seat(store: Store) -> None:
    t = now()
    x, o = await paired(store, THREE_DAYS, t, players=(ANN, BOB))
    key = {x.token: ANN if x.seat == 0 else BOB, o.token: BOB if x.seat == 0 else ANN}
    seat, events = await store.matches.poll(x.match, key[x.token], 0, t + DAY)
    assert seat == x.seat and len(events) == 1
    assert await store.matches.act(x.match, key[x.token], move(1, "e4"), t + DAY) == 2
    # A retry with the seat token is the same write.
    assert await store.matches.act(x.match, x.token, move(1, "e4"), t + DAY) == 2
    await expect_error(
        "turn/not_yours", store.matches.act(x.match, key[x.token], move(2, "d4"), t + DAY)
    )
    await expect_error(
        "auth/bad_token", store.matches.act(x.match, "C" * 40, move(2, "e5"), t + DAY)
    )
    assert await store.matches.act(o.match, key[o.token], Action("resign"), t + DAY) == 3


async def test_a_player_key_never_plays_itself(store: Store) -> None:
    t = now()
    await store.matches.seek("corr", "1", "den", t, None, None, ANN)
    await expect_error(
        "room/same_player", store.matches.seek("corr", "1", "den", t, None, None, ANN)
    )
    first = await store.matches.seek("corr", "1", None, t, None, None, ANN)
    second = await store.matches.seek("corr", "1", None, t, None, None, ANN)
    assert (first.seat, second.seat) == (0, 0) and first.match != second.match
    other = await store.matches.seek("corr", "1", None, t, None, None, BOB)
    assert (other.match, other.seat) == (first.match, 1)
    again = await store.matches.seek("corr", "1", None, t, None, None, BOB)
    assert (again.match, again.seat) == (second.match, 1)
    third = await store.matches.seek("corr", "1", None, t, None, None, ANN)
    assert third.seat == 0 and third.match not in (first.match, second.match)


async def test_player_matches_lists_the_keys_seats_in_order(store: Store) -> None:
    t = now()
    assert await store.players.matches(ANN, t) == []
    mine, _theirs = await paired(store, THREE_DAYS, t, "g1", (ANN, BOB))
    later, _ = await paired(store, MINUTES, t, "g2", (ANN, BOB))
    waiting = await store.matches.seek("g3", "1", None, t, None, None, ANN)
    over, _other = await paired(store, None, t, "g4", (ANN, BOB))
    await store.matches.act(over.match, over.token, Action("resign"), t + 1)
    rows = listing(await store.players.matches(ANN, t + 10), t + 10)
    by_match = {row["match"]: row for row in rows}
    assert set(by_match) == {mine.match, later.match, waiting.match, over.match}
    assert by_match[waiting.match]["status"] == "waiting"
    assert by_match[waiting.match]["left"] is None
    assert by_match[over.match]["result"] == {"reason": "resigned", "seat": over.seat}
    assert rows[-1]["match"] == over.match and rows[-2]["match"] == waiting.match
    turns = [row for row in rows if row["your_turn"]]
    partners = [row for row in rows if row["status"] == "playing" and not row["your_turn"]]
    assert rows[: len(turns)] == turns and rows[len(turns) : len(turns) + len(partners)] == partners
    for row in turns + partners:
        assert row["turn"] is not None and row["time_control"] is not None
        assert isinstance(row["left"], list) and len(row["left"]) == 2
    if len(turns) == 2:  # least time left first: the 600 s match before the three-day one
        assert turns[0]["match"] == later.match
    assert {row["seat"] for row in rows if row["match"] == waiting.match} == {0}
    assert all("contact" not in row for row in rows)


async def test_player_matches_say_who_moved_first_the_names_and_an_agreed_ends_claim(
    store: Store,
) -> None:
    t = now()
    a = await store.matches.seek("g6", "1", None, t, None, None, ANN, None, "Ann")
    b = await store.matches.seek("g6", "1", None, t, None, None, BOB, None, "Bob")
    await start(store, a, at=t)
    _, events = await store.matches.poll(a.match, None, 0, t)
    x, o = (a, b) if parse(events)[0]["first"] == 0 else (b, a)
    await store.matches.act(x.match, x.token, Action("move", 1, "m", True, claim="win"), t + 1)
    await store.matches.act(o.match, o.token, Action("confirm", 2), t + 2)
    (row,) = listing(await store.players.matches(BOB, t + 3), t + 3)
    assert row["first"] == x.seat and row["names"] == ["Ann", "Bob"]
    assert row["result"] == {"reason": "agreed", "seat": o.seat, "claim": "win"}
    (hidden,) = listing(await store.players.matches(ANN, t + 3), t + 3, names=False)
    assert hidden["names"] == [None, None]


async def test_a_player_key_with_too_many_matches_may_not_seek(store: Store) -> None:
    t = now()
    for index in range(LISTED - 1):
        await store.matches.seek(f"g{index}", "1", None, t, None, None, ANN)
    token = new_token()
    last = await store.matches.seek("glast", "1", None, t, token, None, ANN)
    # The same seek repeated (its answer was lost) is answered the same, not refused.
    again = await store.matches.seek("glast", "1", None, t + 1, token, None, ANN)
    assert (again.match, again.seat) == (last.match, last.seat)
    await expect_error("player/too_many", store.matches.seek("gx", "1", None, t, None, None, ANN))
    assert len(await store.players.matches(ANN, t)) == LISTED
    assert (await store.matches.seek("gx", "1", None, t, None, None, BOB)).seat == 0


async def test_the_reaper_forgets_a_players_old_matches(store: Store) -> None:
    t = now()
    x, _ = await paired(store, None, t, players=(ANN, None))
    await store.matches.act(x.match, x.token, Action("resign"), t + 1)
    assert len(await store.players.matches(ANN, t + 2)) == 1
    await store.matches.reap(t + 2 + SETTINGS.keep)
    assert await store.players.matches(ANN, t + 3 + SETTINGS.keep) == []


async def test_turn_notices_tell_seats_with_a_contact_in_deadline_matches(store: Store) -> None:
    told = listen(store)
    t = now()
    x, o = await paired(store, MINUTES, t, contacts=("mail:ann", "push:bob \u00e9"))
    contact = {x.seat: "mail:ann" if x.seat == 0 else "push:bob \u00e9"}
    contact[o.seat] = "push:bob \u00e9" if x.seat == 0 else "mail:ann"
    assert told == [TurnNotice(x.match, "corr", x.seat, 1, contact[x.seat], t + 600)]
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 5)
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 6)  # a retry: no second notice
    await store.matches.act(o.match, o.token, Action("pass", 2), t + 7)
    await store.matches.act(o.match, o.token, Action("pass", 2), t + 8)  # a retry
    assert told[1:] == [
        TurnNotice(x.match, "corr", o.seat, 2, contact[o.seat], t + 605),
        TurnNotice(x.match, "corr", x.seat, 3, contact[x.seat], t + 607),
    ]
    # A game-over move gives the partner its confirm to give, until that lapses.
    await store.matches.act(x.match, x.token, move(3, "mate", end=True), t + 9)
    assert told[3:] == [TurnNotice(x.match, "corr", o.seat, 4, contact[o.seat], t + 609)]
    await store.matches.act(o.match, o.token, Action("confirm", 4), t + 10)
    assert len(told) == 4


async def test_no_turn_notice_without_a_contact_or_a_deadline(store: Store) -> None:
    told = listen(store)
    t = now()
    x, _o = await paired(store, MINUTES, t, "quiet")
    await store.matches.act(x.match, x.token, move(1, "e4"), t + 1)
    y, _p = await paired(store, FISCHER, t, "blitz", contacts=("a", "b"))
    await store.matches.act(y.match, y.token, move(1, "e4"), t + 1)
    z, _q = await paired(store, None, t, "plain", contacts=("a", "b"))
    await store.matches.act(z.match, z.token, move(1, "e4"), t + 1)
    assert told == []
    # Only the seat with a contact is told.
    one, _two = await paired(store, MINUTES, t, "half", contacts=("only0", None))
    await store.matches.act(one.match, one.token, move(1, "e4"), t + 1)
    assert [notice.seat for notice in told] == [0]
    assert all(notice.contact == "only0" for notice in told)


async def test_a_rematch_keeps_player_keys_and_contacts(store: Store) -> None:
    told = listen(store)
    t = now()
    x, o = await paired(store, MINUTES, t, players=(ANN, BOB), contacts=("c0", "c1"))
    await store.matches.act(x.match, x.token, Action("resign"), t + 1)
    await store.rematches.step(x.match, x.token, "offer", t + 2)
    again = await store.rematches.step(o.match, o.token, "offer", t + 2)
    assert again.match is not None and again.first is not None
    digest = hash_token((ANN, BOB)[again.first])
    assert told[-1] == TurnNotice(
        again.match, "corr", again.first, 1, f"c{again.first}", t + 2 + 600, digest
    )
    seat, _ = await store.matches.poll(again.match, ANN, 0, t + 3)
    assert seat == 0
    assert again.match in {row.info.match for row in await store.players.matches(BOB, t + 3)}


def test_memory_store_turns_default_to_nobody() -> None:
    assert MemoryStore().hooks.turns is None
