"""Verdicts end to end: real relay processes with the example games' referees turned on
(`--referee`), on the memory store, on Redis (two processes on one Redis too) and on a Redis
Cluster; and a dispute's reason without a referee."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.relay.wire import Seat, Wire
from tests.support.redis_cluster import session_cluster
from tests.support.redis_server import session_redis
from tests.support.relay_process import ROOT, RelayProcess, quick_flags

REFEREED = ("xand0", "connect4", "dots", "broken", "odd", "slow")
"""The games the relays of these tests referee (tests.support.refereed_relay)."""

FLAGS = (
    *(flag for game in REFEREED for flag in ("--referee", game)),
    "--referee-budget",
    "0.5",
)

GAMES: dict[str, dict[str, Any]] = {
    # moves played in turn, the first mover first; each game's last move is the one judged
    "xand0": {
        "forged": ["00", "10", "11"],
        "illegal": ["00", "00"],
        "illegal_detail": "cell '00' is already occupied",
        "won": ["00", "10", "11", "20", "22"],
        "won_detail": "three in a row",
    },
    "connect4": {
        "forged": ["3"],
        "illegal": ["3", "9"],
        "illegal_detail": "move '9' is not one column digit 0..6",
        "won": ["0", "1", "0", "1", "0", "1", "0"],
        "won_detail": "four in a row",
    },
    "dots": {
        "forged": ["h00", "h30"],
        "illegal": ["h00", "h00"],
        "illegal_detail": "line 'h00' is drawn already",
    },
}


def relay(*args: str, installed: Path | None = None) -> RelayProcess:
    """Returns a relay process refereeing REFEREED (not started); with installed, the relay
    as the wheel installs it (compiled), the referees from the checkout."""
    env = None if installed is None else {"PYTHONPATH": f"{installed}{os.pathsep}{ROOT}"}
    return RelayProcess(
        *quick_flags(), *FLAGS, *args, module="tests.support.refereed_relay",
        installed=installed, env=env,
    )  # fmt: skip


@pytest.fixture(scope="module", params=["memory", "redis", "compiled"])
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Returns the URL of a refereeing relay on the memory store, on a redis-server, or on
    the memory store as the wheel installs it, its hot path compiled."""
    if request.param == "compiled":
        with relay(installed=request.getfixturevalue("installed")) as process:
            yield process.url
        return
    args = () if request.param == "memory" else ("--store", session_redis(request).url)
    with relay(*args) as process:
        yield process.url


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    """Returns an HTTP client session."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as made:
        yield made


@pytest.fixture
def wire(session: aiohttp.ClientSession, url: str) -> Wire:
    """Returns a protocol client of the refereeing relay."""
    return Wire(session, url)


async def play(wire: Wire, x: Seat, o: Seat, moves: list[str], end: bool) -> int:
    """Plays moves in turn from x, the last with `end`; returns the last move's number."""
    for index, text in enumerate(moves):
        seat = (x, o)[index % 2]
        last = index + 1 == len(moves)
        body = {"after": index + 1, "move": text, "end": end and last}
        assert await wire.post(seat, "moves", body) == (200, {"seq": index + 2})
    return len(moves) + 1


async def ended(wire: Wire, seat: Seat, seq: int) -> dict[str, Any]:
    """Returns the match's event after seq, which must be its `ended` event."""
    events = await wire.events(seat.match, seq, seat)
    assert [event["type"] for event in events] == ["ended"], events
    return events[0]


async def record_result(wire: Wire, match: str) -> Any:
    """Returns the result in a match's record header."""
    async with wire.session.get(f"{wire.url}/v1/matches/{match}/record") as answer:
        assert answer.status == 200
        text = await answer.text()
    return json.loads(text.splitlines()[0])["result"]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_forged_win_is_caught_at_once(wire: Wire, game: str) -> None:
    x, o = await wire.pair(game, room=f"forged-{game}")
    moves = GAMES[game]["forged"]
    at = await play(wire, x, o, moves, end=True)
    ender = (x, o)[(len(moves) - 1) % 2]
    partner = o if ender is x else x
    verdict = {
        "seq": at + 1, "type": "ended", "reason": "illegal", "seat": ender.seat,
        "winner": partner.seat, "at": at, "detail": "the game is not over",
    }  # fmt: skip
    assert await ended(wire, partner, at) == verdict
    last = {"after": at - 1, "move": moves[-1], "end": True}
    assert await wire.post(ender, "moves", last) == (200, {"seq": at})  # retried: the same
    # The partner hears the move and the verdict together: it has nothing to confirm.
    assert [e["type"] for e in await wire.events(x.match, at - 1, partner)] == ["move", "ended"]
    status, body = await wire.post(partner, "confirm", {"after": at, "agree": True})
    assert (status, body["error"]["code"]) == (409, "match/finished")
    result = {key: verdict[key] for key in ("reason", "seat", "winner", "at", "detail")}
    assert await record_result(wire, x.match) == result


async def test_endings_and_disputes_without_the_right_are_refused_unjudged(wire: Wire) -> None:
    x, o = await wire.pair("connect4", room="unjudged")
    at = await play(wire, x, o, ["0", "1", "0", "1", "0", "1"], end=False)
    stranger = Seat({"match": x.match, "seat": 0, "token": "s" * 43})
    win = {"after": at, "move": "0", "end": True}
    for seat, action, body, code in [
        (stranger, "moves", win, "auth/bad_token"),  # a winning move, but no seat's
        (stranger, "confirm", {"after": at, "agree": False}, "auth/bad_token"),
        (o, "moves", win, "turn/not_yours"),  # the seat not to move ends the game
        (o, "confirm", {"after": at, "agree": False}, "match/not_ending"),  # its own move
        (x, "confirm", {"after": at - 1, "agree": False}, "turn/stale"),
    ]:
        status, answer = await wire.post(seat, action, body)
        assert (status, answer["error"]["code"]) == (403 if seat is stranger else 409, code)
    # Nothing was written: the winner's move is still to come, and judged as ever.
    assert await wire.events(x.match, at, x) == []
    assert await wire.post(x, "moves", win) == (200, {"seq": at + 1})
    assert (await ended(wire, o, at + 1))["reason"] == "over"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_illegal_move_disputed_is_caught(wire: Wire, game: str) -> None:
    x, o = await wire.pair(game, room=f"illegal-{game}")
    moves = GAMES[game]["illegal"]
    at = await play(wire, x, o, moves, end=False)
    offender = (x, o)[(len(moves) - 1) % 2]
    disputer = o if offender is x else x
    dispute = {"after": at, "agree": False, "reason": "not a legal move"}
    assert await wire.post(disputer, "confirm", dispute) == (200, {"seq": at + 1})
    assert await wire.post(disputer, "confirm", dispute) == (200, {"seq": at + 1})  # retried
    assert await ended(wire, offender, at) == {
        "seq": at + 1, "type": "ended", "reason": "illegal", "seat": offender.seat,
        "winner": disputer.seat, "at": at, "detail": GAMES[game]["illegal_detail"],
    }  # fmt: skip


@pytest.mark.parametrize("game", ["xand0", "connect4"])
async def test_real_win_is_over_with_its_winner(wire: Wire, game: str) -> None:
    x, o = await wire.pair(game, room=f"won-{game}")
    at = await play(wire, x, o, GAMES[game]["won"], end=True)
    assert await ended(wire, o, at) == {
        "seq": at + 1, "type": "ended", "reason": "over", "seat": x.seat, "winner": x.seat,
        "at": at, "detail": GAMES[game]["won_detail"],
    }  # fmt: skip


async def test_held_end_move_answers_with_the_verdict(wire: Wire) -> None:
    x, _ = await wire.pair("connect4", room="held-end")
    body = {"after": 1, "move": "3", "end": True}
    status, answer = await wire.call("POST", f"/v1/matches/{x.match}/moves?wait=5", body, x.auth)
    assert status == 200 and answer["seq"] == 2
    assert [(e["type"], e["reason"]) for e in answer["events"]] == [("ended", "illegal")]


async def test_legal_move_disputed_loses_the_dispute(wire: Wire) -> None:
    x, o = await wire.pair("connect4", room="dispute-legal")
    await play(wire, x, o, ["3"], end=False)
    assert await wire.post(o, "confirm", {"after": 2, "agree": False}) == (200, {"seq": 3})
    assert await ended(wire, x, 2) == {
        "seq": 3, "type": "ended", "reason": "disputed", "seat": o.seat, "winner": x.seat,
        "at": 2, "detail": "the referee found the move legal and the game not over",
    }  # fmt: skip


async def test_game_over_disputed_is_over(wire: Wire) -> None:
    x, o = await wire.pair("xand0", room="over-unclaimed")
    # X completes a row without saying so; O disputes: the referee says the game is over.
    at = await play(wire, x, o, GAMES["xand0"]["won"], end=False)
    assert await wire.post(o, "confirm", {"after": at, "agree": False}) == (200, {"seq": at + 1})
    found = await ended(wire, o, at)
    assert (found["reason"], found["seat"], found["winner"]) == ("over", x.seat, x.seat)


async def test_move_after_the_game_was_over_is_illegal(wire: Wire) -> None:
    x, o = await wire.pair("connect4", room="after-over")
    # X's fourth in column 0 won; O plays on and then claims the end.
    at = await play(wire, x, o, [*GAMES["connect4"]["won"], "5"], end=True)
    found = await ended(wire, x, at)
    assert (found["reason"], found["seat"], found["winner"], found["at"]) == (
        "illegal", o.seat, x.seat, at,
    )  # fmt: skip
    assert found["detail"] == "the game was over (four in a row)"


async def test_takeback_is_applied_before_judging(wire: Wire) -> None:
    x, o = await wire.pair("connect4", room="takeback")
    await play(wire, x, o, ["0", "1"], end=False)
    assert (await wire.post(o, "offer", {"kind": "takeback", "after": 3}))[0] == 200
    status, _ = await wire.post(x, "answer", {"accept": True, "after": 3})
    assert status == 200
    # O's "1" was taken back: O plays "0" instead, legal there.
    assert await wire.post(o, "moves", {"after": 4, "move": "0"}) == (200, {"seq": 5})
    assert await wire.post(x, "confirm", {"after": 5, "agree": False}) == (200, {"seq": 6})
    assert (await ended(wire, x, 5))["reason"] == "disputed"


@pytest.mark.parametrize("game", ["broken", "odd", "slow"])
async def test_failing_referee_leaves_the_match_unrefereed(wire: Wire, game: str) -> None:
    x, o = await wire.pair(game, room=f"failing-{game}")
    assert await wire.post(x, "moves", {"after": 1, "move": "a", "end": True}) == (200, {"seq": 2})
    assert await wire.events(x.match, 2, x, wait=0) == []  # no verdict: the confirm is awaited
    assert await wire.post(o, "confirm", {"after": 2, "agree": True}) == (200, {"seq": 3})
    assert await ended(wire, o, 2) == {
        "seq": 3,
        "type": "ended",
        "reason": "agreed",
        "seat": o.seat,
    }
    x, o = await wire.pair(game, room=f"failing-dispute-{game}")
    await play(wire, x, o, ["a"], end=False)
    assert await wire.post(o, "confirm", {"after": 2, "agree": False}) == (200, {"seq": 3})
    assert await ended(wire, o, 2) == {
        "seq": 3, "type": "ended", "reason": "disputed", "seat": o.seat, "at": 2
    }  # fmt: skip
    if game == "slow":  # past --referee-budget: given up twice, and counted
        async with wire.session.get(f"{wire.url}/metrics") as answer:
            text = await answer.text()
        counted = [line for line in text.splitlines() if line.startswith("relay_referee_over")]
        assert counted and float(counted[0].split()[-1]) >= 2, counted


async def test_unrefereed_dispute_reason_reaches_partner_and_record(wire: Wire) -> None:
    x, o = await wire.pair("opaque", room="reason")
    await play(wire, x, o, ["c9"], end=False)
    for bad in ["x" * 201, "bell \x07", 12]:
        status, body = await wire.post(o, "confirm", {"after": 2, "agree": False, "reason": bad})
        assert (status, body["error"]["code"]) == (400, "request/invalid"), bad
    dispute = {"after": 2, "agree": False, "reason": "  column 9 is off the board  "}
    assert await wire.post(o, "confirm", dispute) == (200, {"seq": 3})
    assert await wire.post(o, "confirm", dispute) == (200, {"seq": 3})  # retried
    verdict = {
        "seq": 3, "type": "ended", "reason": "disputed", "seat": o.seat, "at": 2,
        "detail": "column 9 is off the board",
    }  # fmt: skip
    assert await ended(wire, x, 2) == verdict
    assert await record_result(wire, x.match) == {
        "reason": "disputed", "seat": o.seat, "at": 2, "detail": "column 9 is off the board"
    }  # fmt: skip


async def test_verdict_on_a_redis_cluster(request: pytest.FixtureRequest) -> None:
    cluster = session_cluster(request)
    with relay("--store", cluster.url) as process:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            wire = Wire(session, process.url)
            x, o = await wire.pair("connect4", room="cluster-forged")
            await play(wire, x, o, ["3"], end=True)
            found = await ended(wire, o, 2)
            assert (found["reason"], found["seat"], found["winner"]) == ("illegal", x.seat, o.seat)
            x, o = await wire.pair("dots", room="cluster-illegal")
            await play(wire, x, o, ["h00", "h00"], end=False)
            assert await wire.post(x, "confirm", {"after": 3, "agree": False}) == (200, {"seq": 4})
            found = await ended(wire, x, 3)
            assert (found["reason"], found["seat"], found["at"]) == ("illegal", o.seat, 3)


async def confirm(wire: Wire, seat: Seat, at: int) -> tuple[int, Any]:
    """Posts the seat's confirm of the move at event `at` as soon as the move is there."""
    while True:
        status, answer = await wire.post(seat, "confirm", {"after": at, "agree": True})
        if status != 409 or answer["error"]["code"] != "turn/stale":
            return status, answer


async def test_two_relays_on_one_redis_write_one_verdict(request: pytest.FixtureRequest) -> None:
    store = ("--store", session_redis(request).url)
    with relay(*store) as one, relay(*store) as two:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            first, second = Wire(session, one.url), Wire(session, two.url)
            for round_ in range(8):
                x, o = await first.pair("connect4", room=f"two-relays-{round_}")
                moves = GAMES["connect4"]["won"]
                await play(first, x, o, moves[:-1], end=False)
                at = len(moves) + 1
                end = {"after": at - 1, "move": moves[-1], "end": True}
                # The winning move on one relay, the partner's confirm on the other, at once:
                # both judge it, one writes the verdict.
                (moved, _), (confirmed, answer) = await asyncio.gather(
                    first.post(x, "moves", end), confirm(second, o, at)
                )
                assert moved == 200
                assert (confirmed, answer) == (200, {"seq": at + 1}) or (
                    confirmed == 409 and answer["error"]["code"] == "match/finished"
                ), answer
                events = await second.events(x.match, 0)
                assert [e["type"] for e in events].count("ended") == 1
                assert events[-1]["reason"] == "over" and events[-1]["winner"] == x.seat
                # The same game-ending move sent to both at once (a retry through another
                # process): both judge it, one writes it, both answer its number.
                x, o = await first.pair("connect4", room=f"two-relays-retry-{round_}")
                await play(first, x, o, moves[:-1], end=False)
                answers = await asyncio.gather(
                    first.post(x, "moves", end), second.post(x, "moves", end)
                )
                assert list(answers) == [(200, {"seq": at})] * 2
                events = await second.events(x.match, 0)
                assert [e["type"] for e in events][-2:] == ["move", "ended"]
                assert [e["type"] for e in events].count("ended") == 1


async def test_confirm_writes_the_verdict_a_relay_did_not(request: pytest.FixtureRequest) -> None:
    store = ("--store", session_redis(request).url)
    # A relay without the referee takes the end (as if the refereeing process had died).
    opaque = RelayProcess(*quick_flags(), *store)
    with opaque, relay(*store) as refereeing:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session:
            plain, judged = Wire(session, opaque.url), Wire(session, refereeing.url)
            x, o = await plain.pair("connect4", room="died")
            await play(plain, x, o, ["3", "4"], end=True)
            assert await plain.events(x.match, 3, x, wait=0) == []
            assert await judged.post(x, "confirm", {"after": 3, "agree": True}) == (200, {"seq": 4})
            found = await ended(judged, x, 3)
            assert (found["reason"], found["seat"], found["detail"]) == (
                "illegal", o.seat, "the game is not over",
            )  # fmt: skip
