"""Verdicts in the store, run unchanged against every store implementation: a referee's
verdict written with the game-ending move it judges, or with a confirm, once; a dispute's
reason."""

from __future__ import annotations

import asyncio

from relay import Action, Status, Store
from relay.core.verdicts import Ending
from tests.relay.store.calls import expect_error, move, mover, now, pair, parse, start
from tests.support.waits import waited

OVER = Ending("over", 0, 0, 2, "four in a row")


def ending_move(after: int, text: str, ending: Ending) -> Action:
    """Returns a game-ending move carrying a referee's verdict."""
    return Action("move", after, text, True, True, ending)


async def test_move_carrying_a_verdict_ends_the_match_with_it(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    verdict = Ending("over", x.seat, x.seat, 2, 'four in a row "at last"')
    waiting = asyncio.ensure_future(waited(store, x.match, 1, 5.0))
    await asyncio.sleep(0.05)
    assert await store.matches.act(x.match, x.token, ending_move(1, "3", verdict), now()) == 2
    assert (
        await store.matches.act(x.match, x.token, ending_move(1, "3", verdict), now()) == 2
    )  # retried
    ended = {
        "seq": 3, "type": "ended", "reason": "over", "seat": x.seat, "winner": x.seat, "at": 2,
        "detail": 'four in a row "at last"',
    }  # fmt: skip
    move_event = {"seq": 2, "type": "move", "seat": x.seat, "move": "3", "end": True}
    # A wait for the move is answered the move and the verdict together.
    assert parse(await asyncio.wait_for(waiting, 5.0)) == [move_event, ended]
    assert parse((await store.matches.poll(x.match, None, 1, now()))[1]) == [move_event, ended]
    assert (await store.matches.info(x.match)).status is Status.FINISHED
    assert (await store.matches.endings()).get("over") == 1
    await expect_error(
        "match/finished", store.matches.act(o.match, o.token, Action("confirm", 2), now())
    )
    # A wait for the verdict alone hears it too.
    assert parse(await waited(store, x.match, 2, 1.0)) == [ended]


async def test_move_carrying_a_verdict_is_refused_like_any_move(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await expect_error(
        "turn/not_yours", store.matches.act(o.match, o.token, ending_move(1, "3", OVER), now())
    )
    await expect_error(
        "turn/stale", store.matches.act(x.match, x.token, ending_move(5, "3", OVER), now())
    )
    events = parse((await store.matches.poll(x.match, None, 0, now()))[1])
    assert [event["type"] for event in events] == ["started"]


async def test_confirm_carrying_a_verdict_writes_it_and_answers_retries(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "3", end=True), now())
    forged = Ending("illegal", x.seat, o.seat, 2, "the game is not over")
    confirm = Action("confirm", 2, "", False, True, forged)
    assert await store.matches.act(o.match, o.token, confirm, now()) == 3
    assert await store.matches.act(o.match, o.token, confirm, now()) == 3
    events = parse((await store.matches.poll(x.match, None, 2, now()))[1])
    assert events == [
        {"seq": 3, "type": "ended", "reason": "illegal", "seat": x.seat, "winner": o.seat,
         "at": 2, "detail": "the game is not over"},
    ]  # fmt: skip


async def test_dispute_of_a_move_with_a_verdict(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "9"), now())
    illegal = Ending("illegal", x.seat, o.seat, 2, "no column 9")
    dispute = Action("confirm", 2, "no such column", False, False, illegal)
    assert await store.matches.act(o.match, o.token, dispute, now()) == 3
    events = parse((await store.matches.poll(x.match, None, 2, now()))[1])
    assert events[0]["reason"] == "illegal" and events[0]["detail"] == "no column 9"


async def test_dispute_reason_is_kept_and_retries_answer_the_same(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "3", end=True), now())
    dispute = Action("confirm", 2, "no four in a row: 3 is one piece", False, False)
    assert await store.matches.act(o.match, o.token, dispute, now()) == 3
    assert await store.matches.act(o.match, o.token, dispute, now()) == 3
    other = Action("confirm", 2, "another reason", False, False)
    await expect_error("match/finished", store.matches.act(o.match, o.token, other, now()))
    events = parse((await store.matches.poll(x.match, None, 2, now()))[1])
    assert events == [
        {"seq": 3, "type": "ended", "reason": "disputed", "seat": o.seat, "at": 2,
         "detail": "no four in a row: 3 is one piece"},
    ]  # fmt: skip


async def test_agreed_end_has_no_verdict_fields(store: Store) -> None:
    a, b = await pair(store)
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "3", end=True), now())
    assert await store.matches.act(o.match, o.token, Action("confirm", 2), now()) == 3
    events = parse((await store.matches.poll(x.match, None, 2, now()))[1])
    assert events == [{"seq": 3, "type": "ended", "reason": "agreed", "seat": o.seat}]


async def test_player_matches_show_the_verdict(store: Store) -> None:
    keys = ["k" * 40, "q" * 40]
    a = await store.matches.seek("c4", "1", None, now(), player=keys[0])
    b = await store.matches.seek("c4", "1", None, now(), player=keys[1])
    await start(store, a)
    x, o = await mover(store, a, b)
    forged = Ending("illegal", x.seat, o.seat, 2, "not over")
    await store.matches.act(x.match, x.token, ending_move(1, "3", forged), now())
    for key in keys:
        (listed,) = await store.players.matches(key, now())
        assert listed.result == {
            "reason": "illegal", "seat": x.seat, "winner": o.seat, "at": 2, "detail": "not over"
        }  # fmt: skip


async def test_judged_checks_the_token_before_it_reads_the_log(store: Store) -> None:
    a, b = await pair(store, game="c4")
    x, o = await mover(store, a, b)
    await store.matches.act(x.match, x.token, move(1, "3"), now())
    found = await store.matches.judged(x.match, o.token, 2, {"c4", "xand0"})
    assert found is not None
    assert (found.game, found.status, found.seat) == ("c4", Status.PLAYING, o.seat)
    assert [event["type"] for event in parse(found.events)] == ["started", "move"]
    # A stranger's token is refused whatever else the call asks; so is an unknown match.
    for after in (2, 1, 99):
        await expect_error("auth/bad_token", store.matches.judged(x.match, "s" * 43, after, {"c4"}))
    await expect_error("match/unknown", store.matches.judged("nosuchmatch", x.token, 2, {"c4"}))
    # Nothing to judge: another game's referees, another position, a match ended.
    assert await store.matches.judged(x.match, o.token, 2, {"xand0"}) is None
    assert await store.matches.judged(x.match, o.token, 1, {"c4"}) is None
    await store.matches.act(x.match, x.token, Action("resign"), now())
    assert await store.matches.judged(x.match, o.token, 3, {"c4"}) is None
