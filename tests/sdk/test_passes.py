"""Passes as events: a game hears of the partner's pass, may dispute it, and passes by choice."""

from __future__ import annotations

import pytest

from sdk import Event, NotYourTurnError, Passed, Reason, State
from sdk._endings import rejected
from sdk._resume import split_log
from sdk.errors import NO_PASS_REASON
from sdk.events import Moved
from tests.sdk.scripted import (
    PASS,
    REJECT,
    Side,
    moves_in,
    play_pair,
    relay_log,
    ticket_of,
    told_of_dispute,
)
from tests.sdk.states import ENDED, LISTENING, TO_MOVE, WAIT_MOVE, WAITING
from tests.support.desk import DeskHost
from tests.support.idle_game import Idle


async def test_a_voluntary_pass_is_heard_by_the_partner_game(relay: str) -> None:
    first = Side([PASS, "a2!"])
    second = Side(["b1"], pass_answers=[TO_MOVE], answers={"a2!": ENDED})
    played = await play_pair(relay, first, second)

    assert played.first.calls[:4] == [
        ("created", "True", LISTENING),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),  # pass_turn() disables at once, like move()
        ("receive_move", "b1", WAIT_MOVE),
    ]
    assert played.first.states[:4] == [LISTENING, TO_MOVE, WAITING, WAIT_MOVE]
    assert played.second.calls[:5] == [
        ("created", "False", LISTENING),
        ("disable", "", WAIT_MOVE),
        ("receive_pass", "", WAIT_MOVE),  # told of the pass before it gets the turn
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
    ]
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    log = await relay_log(relay, played.match)
    assert moves_in(log) == ["pass", "b1", "a2!", "ended:agreed"]
    assert log[1] == Passed(2, ticket_of(played.first).seat)


async def test_a_false_pass_is_disputed_and_ends_the_match_disputed(relay: str) -> None:
    played = await play_pair(relay, Side([PASS]), Side([], pass_answers=[REJECT]))

    said = rejected(1, True, NO_PASS_REASON)
    assert played.second.calls[-2:] == [
        ("receive_pass", "", WAIT_MOVE),
        ("show_dialog", said, ENDED),
    ]
    log = await relay_log(relay, played.match)
    told = told_of_dispute(log, ticket_of(played.first).seat)
    assert played.first.calls[-1] == ("show_dialog", told, ENDED)
    mine, theirs = played.outcome(False), played.outcome(True)
    assert (mine.reason, mine.by_me, mine.message) == (Reason.DISPUTED, True, said)
    assert (theirs.reason, theirs.by_me) == (Reason.DISPUTED, False)
    assert moves_in(log) == ["pass", "ended:disputed"]


async def test_a_game_with_no_move_after_a_pass_passes_back(relay: str) -> None:
    first = Side([PASS, "a2!"])
    second = Side([], pass_answers=[WAIT_MOVE], answers={"a2!": ENDED})
    played = await play_pair(relay, first, second)
    assert ("enable", "", TO_MOVE) not in played.second.calls
    assert moves_in(await relay_log(relay, played.match)) == ["pass", "pass", "a2!", "ended:agreed"]


async def test_pass_turn_out_of_turn_raises_and_sends_nothing(relay: str) -> None:
    played = await play_pair(relay, Side(["a1!"]), Side([], answers={"a1!": ENDED}))
    for host in (played.first, played.second):
        with pytest.raises(NotYourTurnError, match="pass_turn"):
            host.pass_turn()
    assert moves_in(await relay_log(relay, played.match)) == ["a1!", "ended:agreed"]


def test_a_host_that_cannot_pass_says_so() -> None:
    with pytest.raises(NotImplementedError, match="DeskHost cannot pass"):
        DeskHost().pass_turn()


def test_the_default_receive_pass_gives_the_turn() -> None:
    assert "receive_pass" not in Idle.__dict__  # a game written before passes were events
    assert Idle(DeskHost(), True).receive_pass() is State.PLAYING_TO_MOVE


def test_a_resumed_seat_hears_an_unanswered_partner_pass_live() -> None:
    events: list[Event] = [Moved(2, 0, "a1", False), Passed(3, 1)]
    assert split_log(events, 0) == (events[:1], events[1:])
    assert split_log(events, 1) == (events, [])
