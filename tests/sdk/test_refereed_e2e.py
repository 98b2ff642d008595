"""The SDK against a relay that referees Connect Four (issue 26): a forged win, an illegal
move, a real win and a dispute of a legal move each end as the referee says, with the words
and the Outcome's fields; a confirm refused because the referee ended the match is no error."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from sdk import Game, GameHost, MoveRejected, Outcome, Reason, RelayHost, Result, State
from sdk.testing import FAST
from tests.support.relay_process import RelayProcess, quick_flags

REFEREED: dict[str, Any] = {"module": "tests.support.refereed_relay"}
"""Runs the relay with the example games' referees for --referee to pick."""

Answer = Callable[[str], State]


@pytest.fixture(scope="module")
def refereed() -> Iterator[str]:
    """Returns the URL of a relay refereeing Connect Four, on the memory store."""
    flags = (*quick_flags(), "--referee", "connect4")
    with RelayProcess(*flags, **REFEREED) as process:
        yield process.url


class Scripted(Game):
    """Plays its moves in turn (the last with `end` when told) and answers as told."""

    def __init__(
        self, host: GameHost, first_move: bool, moves: Sequence[str], end: bool, answer: Answer
    ) -> None:
        super().__init__(host, first_move)
        self.moves, self.end, self.answer = list(moves), end, answer
        self.won = False

    def enable(self) -> None:
        move = self.moves.pop(0)
        last = not self.moves
        self.won = last and self.end
        self.host.move(move, end_game=self.won)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        return self.answer(move)

    def result(self) -> Result | None:
        return Result.WON if self.won else None


def play_on(_: str) -> State:
    return State.PLAYING_TO_MOVE


async def match(
    url: str, first: Sequence[str], second: Sequence[str], end: bool, answer: Answer
) -> tuple[Outcome, Outcome, list[str], list[str]]:
    """Plays `first`'s moves against `second`'s (the second side answering with `answer`);
    returns both outcomes (first mover's first) and each side's dialogs."""
    room = "refereed-" + secrets.token_hex(6)
    dialogs: list[list[str]] = [[], []]
    hosts: list[RelayHost] = []
    for index in range(2):

        def make(host: GameHost, first_move: bool) -> Game:
            if first_move:
                return Scripted(host, True, first, end, play_on)
            return Scripted(host, False, second, False, answer)

        hosts.append(
            RelayHost(url, "connect4", make, room=room, timing=FAST, dialog=dialogs[index].append)
        )
    async with asyncio.timeout(30):
        outcomes = await asyncio.gather(*(host.play() for host in hosts))
    order = [0, 1] if hosts[0].game is not None and hosts[0].game.first_move else [1, 0]
    return (
        outcomes[order[0]], outcomes[order[1]], dialogs[order[0]], dialogs[order[1]]
    )  # fmt: skip


async def test_a_forged_win_is_illegal_and_lost_by_the_forger(refereed: str) -> None:
    forger, partner, said, told = await match(refereed, ["3"], [], True, play_on)
    assert (forger.result, forger.reason, forger.by_me) == (Result.LOST, Reason.ILLEGAL, True)
    assert (forger.at, forger.detail, forger.refereed) == (2, "the game is not over", True)
    assert said == ["The referee found your move 1 illegal: the game is not over. You lose."]
    assert (partner.result, partner.reason, partner.winner) == (
        Result.WON, Reason.ILLEGAL, partner.seat
    )  # fmt: skip
    assert told == [
        "The referee found your partner's move 1 illegal: the game is not over. You win."
    ]


async def test_a_real_win_is_over_at_once_and_the_late_confirm_is_no_error(refereed: str) -> None:
    answers = iter([State.PLAYING_TO_MOVE] * 3 + [State.GAME_ENDED])
    winner, loser, said, told = await match(
        refereed, ["0", "0", "0", "0"], ["1", "1", "1"], True, lambda _: next(answers)
    )
    assert (winner.result, winner.reason, winner.winner) == (Result.WON, Reason.OVER, winner.seat)
    assert winner.detail == "four in a row" and said == ["You win: four in a row."]
    assert (loser.result, loser.reason) == (Result.LOST, Reason.OVER)
    assert told == ["The referee found the game over at move 7: four in a row. You lose."]


async def test_a_rejected_illegal_move_is_lost_by_its_player(refereed: str) -> None:
    def reject(move: str) -> State:
        raise MoveRejected(f"there is no column {move}")

    mover, rejecter, said, told = await match(refereed, ["9"], [], False, reject)
    assert (mover.result, mover.reason) == (Result.LOST, Reason.ILLEGAL)
    assert (rejecter.result, rejecter.reason, rejecter.by_me) == (
        Result.WON, Reason.ILLEGAL, False
    )  # fmt: skip
    assert told[0] == "Your game rejected your partner's move 1: there is no column 9. Disputed."
    assert told[-1].startswith("The referee found your partner's move 1 illegal: ")
    assert said[-1].startswith("The referee found your move 1 illegal: ")


async def test_a_dispute_of_a_legal_move_is_lost_by_the_disputer(refereed: str) -> None:
    def reject(move: str) -> State:
        raise MoveRejected("I do not like it")

    mover, disputer, said, told = await match(refereed, ["3"], [], False, reject)
    assert (disputer.result, disputer.reason, disputer.by_me) == (
        Result.LOST, Reason.DISPUTED, True
    )  # fmt: skip
    assert told[-1] == (
        "Your game disputed your partner's move 1, but the referee found it legal. You lose."
    )
    assert (mover.result, mover.reason) == (Result.WON, Reason.DISPUTED)
    assert said == [
        "Your partner's game disputed your move 1, but the referee found it legal. You win."
    ]
