"""The relay's side of a referee: the plays it gives, the verdicts it reads, the ended event
each makes, the confirm's reason, and the referees a host picks."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from collections.abc import Sequence

import orjson
import pytest

import sdk.referee as sdk
from relay import MemoryStore
from relay.api.verdicts import Verdicts, pick_referees
from relay.core.referee import (
    IllegalVerdict,
    LegalVerdict,
    OverVerdict,
    Play,
    Referee,
    WrongVerdict,
    dispute_ending,
    end_ending,
    plays_of,
    read_verdict,
    turn_after,
)
from relay.core.verdicts import DETAIL_MAX, Ending, dispute_tail

PLAYS = [Play(2, 0, "3"), Play(3, 1, None), Play(4, 0, "4", True)]


class Judge:
    """A referee that answers one verdict, whatever the plays."""

    def __init__(self, verdict: object) -> None:
        self.verdict = verdict
        self.given: Sequence[Play] = ()

    def judge(self, plays: Sequence[Play]) -> object:
        self.given = plays
        return self.verdict


def test_sdk_types_satisfy_the_relays_protocols() -> None:
    legal: LegalVerdict = sdk.Legal()
    illegal: IllegalVerdict = sdk.Illegal(2, 0, "full")
    over: OverVerdict = sdk.Over(2, None, "drawn")
    assert (legal.kind, illegal.kind, over.kind) == ("legal", "illegal", "over")
    from examples.connect4.referee import Connect4Referee

    referee: Referee = Connect4Referee()
    assert referee.judge([]) == sdk.Legal()
    fields = [(f.name, f.default) for f in dataclasses.fields(Play)]
    assert fields == [(f.name, f.default) for f in dataclasses.fields(sdk.Play)]
    assert DETAIL_MAX == sdk.DETAIL_MAX


def test_plays_leave_out_what_takebacks_undid() -> None:
    log = [
        b'{"seq":1,"type":"started","first":1}',
        b'{"seq":2,"type":"move","seat":1,"move":"a","end":false}',
        b'{"seq":3,"type":"move","seat":0,"move":"b","end":false}',
        b'{"seq":4,"type":"undo","seat":1,"count":2}',
        b'{"seq":5,"type":"move","seat":1,"move":"c","end":false}',
        b'{"seq":6,"type":"pass","seat":0}',
        b'{"seq":7,"type":"undo","seat":0,"count":1}',
        b'{"seq":8,"type":"move","seat":0,"move":"d","end":true}',
    ]
    assert plays_of(log, 8) == [Play(5, 1, "c"), Play(8, 0, "d", True)]
    assert plays_of(log, 6) == [Play(5, 1, "c"), Play(6, 0, None)]


def test_game_ending_move_verdicts() -> None:
    over = end_ending(read_verdict(sdk.Over(4, 0, "four in a row"), PLAYS), PLAYS)
    assert over == Ending("over", 0, 0, 4, "four in a row")
    drawn = end_ending(read_verdict(sdk.Over(4, None, "full"), PLAYS), PLAYS)
    assert drawn == Ending("over", 0, None, 4, "full")
    forged = end_ending(read_verdict(sdk.Legal(), PLAYS), PLAYS)
    assert forged == Ending("illegal", 0, 1, 4, "the game is not over")
    earlier = end_ending(read_verdict(sdk.Illegal(3, 1, "a pass"), PLAYS), PLAYS)
    assert earlier == Ending("illegal", 1, 0, 3, "a pass")
    late = end_ending(read_verdict(sdk.Over(2, 0, "won"), PLAYS), PLAYS)
    assert late == Ending("illegal", 1, 0, 3, "the game was over (won)")


def test_dispute_verdicts() -> None:
    plays = PLAYS[:2]
    legal = dispute_ending(read_verdict(sdk.Legal(), plays), plays)
    detail = "the referee found the pass legal and the game not over"
    assert legal == Ending("disputed", 0, 1, 3, detail)
    over = dispute_ending(read_verdict(sdk.Over(3, 1, "no moves left"), plays), plays)
    assert over == Ending("over", 1, 1, 3, "no moves left")
    illegal = dispute_ending(read_verdict(sdk.Illegal(3, 1, "had a move"), plays), plays)
    assert illegal == Ending("illegal", 1, 0, 3, "had a move")


@pytest.mark.parametrize(
    "verdict",
    [
        None,
        "over",
        sdk.Illegal(9, 0, "not a play"),
        sdk.Illegal(2, 1, "seat 1 did not play event 2"),
        sdk.Illegal(2, 0, b"bytes"),  # type: ignore[arg-type]
        sdk.Over(4, 2, "no seat 2"),
        sdk.Over(4, True, "a bool"),
    ],
)
def test_wrong_verdicts_are_refused(verdict: object) -> None:
    with pytest.raises(WrongVerdict):
        read_verdict(verdict, PLAYS)


def test_long_reason_is_cut() -> None:
    ruling = read_verdict(sdk.Illegal(2, 0, "x" * 500), PLAYS)
    assert len(ruling.reason) == DETAIL_MAX


def test_tails_are_json() -> None:
    ending = Ending("over", 1, None, 7, 'quote " and \n')
    event = orjson.loads(b'{"seat":1' + ending.tail() + b"}")
    assert event == {"seat": 1, "winner": None, "at": 7, "detail": 'quote " and \n'}
    assert orjson.loads(b'{"a":0' + dispute_tail(3, "") + b"}") == {"a": 0, "at": 3}
    assert orjson.loads(b'{"a":0' + dispute_tail(3, "why") + b"}") == {
        "a": 0, "at": 3, "detail": "why"
    }  # fmt: skip


def test_pick_referees_names_what_is_missing() -> None:
    available = {"chess": lambda: Judge(sdk.Legal()), "shapeless": object}
    assert list(pick_referees(["chess"], available)) == ["chess"]
    with pytest.raises(ValueError, match=r"'go'.*chess, shapeless"):
        pick_referees(["go"], available)
    with pytest.raises(ValueError, match=r"'shapeless'.*no judge"):
        pick_referees(["shapeless"], available)


LOG = [
    b'{"seq":1,"type":"started","first":0}',
    b'{"seq":2,"type":"move","seat":0,"move":"3","end":false}',
    b'{"seq":3,"type":"pass","seat":1}',
    b'{"seq":4,"type":"move","seat":0,"move":"4","end":true}',
]
"""The log whose plays are PLAYS."""


async def test_failing_referee_is_logged_with_its_game(caplog: pytest.LogCaptureFixture) -> None:
    class Raises:
        def judge(self, plays: Sequence[Play]) -> object:
            raise KeyError("bug")

    verdicts = Verdicts(MemoryStore(), {"chess": Raises(), "odd": Judge(42)})
    with caplog.at_level(logging.ERROR, "relay"):
        assert await verdicts._judge("chess", LOG, 4, None, True) is None
        assert await verdicts._judge("odd", LOG, 4, None, False) is None
    assert ["'chess'" in r.getMessage() for r in caplog.records] == [True, False]
    assert "'odd'" in caplog.records[1].getMessage()


async def test_referee_is_given_the_plays_as_a_sequence() -> None:
    judge = Judge(sdk.Over(4, 0, "won"))
    verdicts = Verdicts(MemoryStore(), {"chess": judge})
    assert await verdicts._judge("chess", LOG, 4, None, True) == Ending("over", 0, 0, 4, "won")
    assert list(judge.given) == PLAYS
    # A game-ending move not yet written is judged after the log's plays.
    end = Play(5, 1, "9", True)
    judge.verdict = sdk.Over(5, 1, "won")
    assert await verdicts._judge("chess", LOG, 4, end, True) == Ending("over", 1, 1, 5, "won")
    assert list(judge.given) == [*PLAYS, end]


async def test_referee_past_its_budget_is_given_up_and_the_loop_runs_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    release = threading.Event()

    class Stuck:
        def judge(self, plays: Sequence[Play]) -> object:
            release.wait(10.0)  # a referee that does not return until told
            return sdk.Legal()

    verdicts = Verdicts(
        MemoryStore(), {"chess": Stuck(), "fast": Judge(sdk.Over(4, 0, "won"))}, 0.3
    )
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(tick())
    started = time.monotonic()
    try:
        with caplog.at_level(logging.WARNING, "relay"):
            # Both judging threads stuck: a third judgement waits for neither past its budget.
            found = await asyncio.gather(
                *(verdicts._judge("chess", LOG, 4, None, True) for _ in range(3))
            )
        took = time.monotonic() - started
        assert found == [None, None, None]
        assert 0.3 <= took < 2.0, took
        assert ticks >= 10, ticks  # the event loop ran on while the referees were stuck
        assert verdicts.over_budget == 3
        assert all("'chess'" in r.getMessage() for r in caplog.records)
        assert len(caplog.records) == 3
    finally:
        ticker.cancel()
        release.set()
    # Once the stuck referees return, the threads judge again.
    assert await verdicts._judge("fast", LOG, 4, None, True) == Ending("over", 0, 0, 4, "won")


def test_turn_after_each_event() -> None:
    assert turn_after(b'{"seq":1,"type":"started","first":1}') == 1
    assert turn_after(b'{"seq":2,"type":"move","seat":1,"move":"a","end":false}') == 0
    assert turn_after(b'{"seq":3,"type":"pass","seat":0}') == 1
    assert turn_after(b'{"seq":4,"type":"undo","seat":0,"count":2}') == 0
    assert turn_after(b'{"seq":5,"type":"ended","reason":"agreed","seat":0}') is None
