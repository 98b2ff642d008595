"""Counting to 5 with a referee: an honest counter, a cheat that skips a number, and the
referee that catches it, for the tests of sdk.testing's referees and the pytest plugin's."""

from __future__ import annotations

import re
from collections.abc import Sequence

import sdk
from sdk import Game, GameHost, Outcome, Reason, Result, State
from sdk.referee import Illegal, Legal, Over, Play, Verdict
from sdk.testing import PairResult

__all__ = ["CountReferee", "Counter", "Skipper", "refereed"]


class Counter(Game):
    """Counts to 5, one number a move, and says the game is over; rejects any number but the
    next with the SDK's IllegalMoveError."""

    def __init__(self, host: GameHost, first_move: bool) -> None:
        super().__init__(host, first_move)
        self.count = 0

    def enable(self) -> None:
        self.count += 1
        self.host.move(str(self.count), end_game=self.count >= 5)

    def disable(self) -> None:
        pass

    def receive_move(self, move: str) -> State:
        if move != str(self.count + 1):
            raise sdk.IllegalMoveError(f"{move!r} is not {self.count + 1}")
        self.count = int(move)
        return State.GAME_ENDED if self.count >= 5 else State.PLAYING_TO_MOVE

    def result(self) -> Result | None:
        return Result.DRAWN


class Skipper(Counter):
    """Skips a number on its first move."""

    def enable(self) -> None:
        self.count += 2
        self.host.move(str(self.count))


class CountReferee:
    """Judges counting to 5: each move the next number; the fifth ends it, won by its mover."""

    def judge(self, plays: Sequence[Play]) -> Verdict:
        for number, play in enumerate(plays, 1):
            if play.move != str(number):
                return Illegal(play.seq, play.seat, f"{play.move!r} is not {number}")
            if number == 5:
                return Over(play.seq, play.seat, "counted to 5")
        return Legal()


def refereed(pair: PairResult, skipper: type[Game] = Skipper) -> tuple[Outcome, Outcome]:
    """Returns the skipper's outcome and its partner's, checking the referee ruled."""
    by_game = {type(game): outcome for game, outcome in zip(pair.games, pair.outcomes, strict=True)}
    cheat, honest = by_game[skipper], by_game[Counter]
    assert (cheat.reason, honest.reason) == (Reason.ILLEGAL, Reason.ILLEGAL)
    assert cheat.refereed and honest.refereed
    assert (cheat.result, honest.result) == (Result.LOST, Result.WON)
    assert re.fullmatch(r"'\d' is not \d", honest.detail), honest.detail
    return cheat, honest
