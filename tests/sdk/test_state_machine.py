"""Scripted games through a real relay: the exact calls each game sees, and each host's states."""

from __future__ import annotations

import asyncio

import pytest

from sdk import NotYourTurnError, Reason, Result, State
from sdk._endings import PARTNER_ABANDONED, PARTNER_RESIGNED, SELF_DISPUTED, local_dispute, rejected
from sdk.errors import NO_REASON
from sdk.events import Moved
from tests.sdk.scripted import (
    CRASH,
    RESIGN,
    Crash,
    Side,
    moves_in,
    play_pair,
    relay_log,
    ticket_of,
    told_of_dispute,
)
from tests.sdk.states import ENDED, LISTENING, TO_MOVE, WAIT_MOVE, WAITING


async def test_normal_match_ends_agreed_with_exact_calls(relay: str) -> None:
    first = Side(["a1", "a2", "a3!"], result=Result.WON)
    second = Side(["b1", "b2"], answers={"a3!": ENDED}, result=Result.LOST)
    played = await play_pair(relay, first, second)

    assert played.first.calls == [
        ("created", "True", LISTENING),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "b1", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "b2", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("result", "", WAITING),  # its claim, asked as the game-ending move is sent
        ("result", "", ENDED),
    ]
    assert played.first.states == [
        LISTENING, TO_MOVE, WAITING, WAIT_MOVE, TO_MOVE, WAITING, WAIT_MOVE, TO_MOVE, WAITING, ENDED
    ]  # fmt: skip
    for side, host in ((True, played.first), (False, played.second)):
        assert host.game is not None and host.outcome is played.outcome(side)
    log = await relay_log(relay, played.match)
    # The game-ending move claims the mover's win; a relay that passes the claim on has the
    # partner's game asked its result to check it (a relay without ratings drops it).
    claimed = [event.claim for event in log if isinstance(event, Moved) and event.end]
    check = [("result", "", WAIT_MOVE)] if claimed == ["win"] else []
    assert played.second.calls == [
        ("created", "False", LISTENING),
        ("disable", "", WAIT_MOVE),
        ("receive_move", "a1", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "a2", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "a3!", WAIT_MOVE),
        *check,
        ("result", "", ENDED),
    ]
    assert played.second.states == [
        LISTENING, WAIT_MOVE, TO_MOVE, WAITING, WAIT_MOVE, TO_MOVE, WAITING, WAIT_MOVE, ENDED
    ]  # fmt: skip
    won, lost = played.outcome(True), played.outcome(False)
    second_seat = ticket_of(played.second).seat
    assert (won.result, won.reason, won.by) == (Result.WON, Reason.AGREED, second_seat)
    assert (lost.result, lost.reason, lost.by_me) == (Result.LOST, Reason.AGREED, True)
    assert won.match == lost.match == played.match
    assert moves_in(await relay_log(relay, played.match)) == [
        "a1", "b1", "a2", "b2", "a3!", "ended:agreed"
    ]  # fmt: skip


async def test_pass_gives_the_partner_the_turn_without_a_move(relay: str) -> None:
    first = Side(["a1", "a2", "a3!"])
    second = Side(["b1"], answers={"a1": WAIT_MOVE, "a3!": ENDED})
    played = await play_pair(relay, first, second)

    assert played.first.calls == [
        ("created", "True", LISTENING),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("enable", "", TO_MOVE),  # the partner passed: the turn again, with no receive_move
        ("disable", "", WAITING),
        ("receive_move", "b1", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("result", "", WAITING),  # its claim
        ("result", "", ENDED),
    ]
    assert played.second.calls == [
        ("created", "False", LISTENING),
        ("disable", "", WAIT_MOVE),
        ("receive_move", "a1", WAIT_MOVE),  # answers PLAYING_WAIT_MOVE: the host passes
        ("receive_move", "a2", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "a3!", WAIT_MOVE),
        ("result", "", ENDED),
    ]
    assert played.second.states == [LISTENING, WAIT_MOVE, TO_MOVE, WAITING, WAIT_MOVE, ENDED]
    assert [played.outcome(side).reason for side in (True, False)] == [Reason.AGREED] * 2
    assert moves_in(await relay_log(relay, played.match)) == [
        "a1", "pass", "a2", "b1", "a3!", "ended:agreed"
    ]  # fmt: skip


async def test_end_the_partner_game_rejects_is_disputed(relay: str) -> None:
    first = Side(["a1", "a2!"], result=Result.WON)
    second = Side(["b1"], result=Result.LOST)  # answers PLAYING_TO_MOVE to the game-ending a2!
    played = await play_pair(relay, first, second)
    log = await relay_log(relay, played.match)

    assert played.first.calls[-3:] == [
        ("disable", "", WAITING),
        ("result", "", WAITING),  # its claim
        ("show_dialog", told_of_dispute(log, ticket_of(played.first).seat), ENDED),
    ]
    assert played.second.calls[-2:] == [
        ("receive_move", "a2!", WAIT_MOVE),
        ("show_dialog", SELF_DISPUTED, ENDED),
    ]
    assert played.second.states[-1] is ENDED
    for side in (True, False):
        outcome = played.outcome(side)
        assert (outcome.result, outcome.reason) == (Result.UNKNOWN, Reason.DISPUTED)
        assert outcome.by == ticket_of(played.second).seat
    assert played.outcome(False).message == SELF_DISPUTED
    assert moves_in(log)[-1] == "ended:disputed"


async def test_game_over_on_a_move_that_did_not_end_it_is_a_local_dispute(relay: str) -> None:
    first = Side(["a1"])
    second = Side([], answers={"a1": ENDED})
    played = await play_pair(relay, first, second)

    assert played.second.calls == [
        ("created", "False", LISTENING),
        ("disable", "", WAIT_MOVE),
        ("receive_move", "a1", WAIT_MOVE),
        ("show_dialog", local_dispute(1), ENDED),
    ]
    mine = played.outcome(False)
    assert (mine.result, mine.reason, mine.by_me) == (Result.UNKNOWN, Reason.DISPUTED, True)
    assert mine.message == local_dispute(1)
    # This side disputes the partner's move on the relay: both see the match end disputed.
    log = await relay_log(relay, played.match)
    told = told_of_dispute(log, ticket_of(played.first).seat)
    assert played.first.calls[-1] == ("show_dialog", told, ENDED)
    theirs = played.outcome(True)
    assert (theirs.result, theirs.reason, theirs.by_me) == (Result.UNKNOWN, Reason.DISPUTED, False)
    assert moves_in(log) == ["a1", "ended:disputed"]


@pytest.mark.parametrize("move", ["a1", "a1!"], ids=["plain-move", "claimed-end"])
async def test_a_rejected_move_is_disputed_even_when_it_claims_the_end(
    relay: str, move: str
) -> None:
    played = await play_pair(relay, Side([move]), Side([], reject=move))
    assert played.second.calls[-2:] == [
        ("receive_move", move, WAIT_MOVE),
        # The scripted game rejects with the move as its reason, as games written before
        # reasons did: the host sends the default reason.
        ("show_dialog", rejected(1, False, NO_REASON), ENDED),
    ]
    for side in (True, False):
        assert played.outcome(side).reason is Reason.DISPUTED
    assert played.outcome(False).by_me
    assert moves_in(await relay_log(relay, played.match)) == [move, "ended:disputed"]


async def test_resign_ends_the_match_and_the_partner_is_told(relay: str) -> None:
    first = Side(["a1", RESIGN])
    second = Side(["b1"])
    played = await play_pair(relay, first, second)

    assert played.first.calls == [
        ("created", "True", LISTENING),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("receive_move", "b1", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", ENDED),  # resign(): disabled at once; no dialog, the player chose it
    ]
    assert played.second.calls[-1] == ("show_dialog", PARTNER_RESIGNED, ENDED)
    assert played.second.states[-2:] == [WAIT_MOVE, ENDED]
    lost, won = played.outcome(True), played.outcome(False)
    assert (lost.result, lost.reason, lost.by_me) == (Result.LOST, Reason.RESIGNED, True)
    assert (won.result, won.reason, won.message) == (Result.WON, Reason.RESIGNED, PARTNER_RESIGNED)
    assert moves_in(await relay_log(relay, played.match)) == ["a1", "b1", "ended:resigned"]


async def test_partner_that_stops_polling_abandons_and_its_game_is_disabled(
    quick_relay: str,
) -> None:
    first = Side(["a1", "a2"])
    second = Side(["b1", CRASH])
    played = await play_pair(quick_relay, first, second)

    assert isinstance(played.results[False], Crash)
    assert played.first.calls[-4:] == [
        ("receive_move", "b1", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", WAITING),
        ("show_dialog", PARTNER_ABANDONED, ENDED),
    ]
    outcome = played.outcome(True)
    assert (outcome.result, outcome.reason) == (Result.WON, Reason.ABANDONED)
    assert outcome.by == ticket_of(played.second).seat


async def test_partner_abandoning_on_my_turn_disables_my_game(quick_relay: str) -> None:
    first = Side(["a1"])  # nothing more to play: it stays enabled, like a player thinking
    second = Side(["b1"], stop_after=1)  # the client dies once b1 is accepted
    played = await play_pair(quick_relay, first, second)

    assert isinstance(played.results[False], asyncio.CancelledError)
    assert played.first.calls[-4:] == [
        ("receive_move", "b1", WAIT_MOVE),
        ("enable", "", TO_MOVE),
        ("disable", "", ENDED),
        ("show_dialog", PARTNER_ABANDONED, ENDED),
    ]
    assert played.first.states[-2:] == [TO_MOVE, ENDED]
    assert played.outcome(True).reason is Reason.ABANDONED


async def test_move_out_of_turn_raises_and_sends_nothing(relay: str) -> None:
    first = Side(["a1", "a2!"])
    second = Side(["b1"], answers={"a2!": ENDED}, try_move_on_receive=True)
    played = await play_pair(relay, first, second)

    assert played.second.calls[2:4] == [
        ("receive_move", "a1", WAIT_MOVE),
        ("refused", "NotYourTurnError", WAIT_MOVE),
    ]
    assert "out-of-turn" not in moves_in(await relay_log(relay, played.match))
    assert played.outcome(False).reason is Reason.AGREED


async def test_move_before_the_match_or_twice_in_a_turn_raises(relay: str) -> None:
    from sdk import Game, GameHost, RelayHost
    from sdk.testing import FAST, play_pair

    errors: list[str] = []

    class Eager(Game):
        def enable(self) -> None:
            self.host.move("m!", end_game=True)
            try:
                self.host.move("again")
            except NotYourTurnError as exc:
                errors.append(str(exc))

        def disable(self) -> None:
            pass

        def receive_move(self, move: str) -> State:
            return State.GAME_ENDED

    def make(host: GameHost, first_move: bool) -> Game:
        return Eager(host, first_move)

    idle = RelayHost(relay, "eager", make, timing=FAST)
    with pytest.raises(NotYourTurnError, match="NOT_CONNECTED"):
        idle.move("too soon")
    pair = await play_pair(make, make, relay_url=relay)
    assert errors == [
        "move('again') in state State.WAITING_SERVER_RESPONSE: a game moves only after enable()"
    ]
    assert [o.reason for o in pair.outcomes] == [Reason.AGREED, Reason.AGREED]


async def test_bad_answer_from_receive_move_raises_a_clear_error(quick_relay: str) -> None:
    second = Side([], answers={"a1": State.LISTENING})
    played = await play_pair(quick_relay, Side(["a1"]), second, timeout=20)
    error = played.results[False]
    assert isinstance(error, ValueError)
    assert "must return State.PLAYING_TO_MOVE" in str(error)
    assert "State.LISTENING" in str(error)
