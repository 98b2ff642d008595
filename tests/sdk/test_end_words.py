"""Who won, in the game's words: a referee's verdict reaches this side's dialog and Outcome as
"You win: four in a row.", whether or not this side's game knew the result already."""

from __future__ import annotations

import pytest

from sdk._endings import ending
from sdk.events import Ended, Moved
from sdk.outcome import Reason, Result, verdict_words


@pytest.mark.parametrize(
    ("result", "how", "said"),
    [
        (Result.WON, "three in a row", "You win: three in a row."),
        (Result.LOST, "four in a row.", "You lose: four in a row."),
        (Result.DRAWN, "the board is full", "A draw: the board is full."),
        (Result.DRAWN, "a draw: the board is full", "A draw: the board is full."),
        (Result.WON, "", "You win."),
        (Result.DRAWN, "  ", "A draw."),
        (Result.UNKNOWN, "four in a row", ""),
    ],
)
def test_verdict_words_say_who_won_and_how(result: Result, how: str, said: str) -> None:
    assert verdict_words(result, how) == said


def over(winner: int | None, detail: str) -> Ended:
    """Returns a referee's `over` at event 9, played by seat 0."""
    return Ended(10, "over", 0, at=9, detail=detail, winner=winner, refereed=True)


@pytest.mark.parametrize(
    ("ended", "seat", "game", "said"),
    [
        (over(0, "three in a row"), 0, Result.WON, "You win: three in a row."),
        (over(0, "four in a row"), 1, Result.LOST, "You lose: four in a row."),
        (over(None, "a draw: the board is full"), 1, Result.DRAWN, "A draw: the board is full."),
        (over(1, ""), 1, Result.WON, "You win."),
    ],
    ids=["winner", "loser", "draw", "no-words"],
)
def test_a_referees_verdict_the_game_agrees_with_is_told_in_its_words(
    ended: Ended, seat: int, game: Result, said: str
) -> None:
    played = Moved(9, 0, "22", True)
    assert ending(ended, seat, lambda: game, played, 5) == (game, Reason.OVER, said)


def test_a_referees_verdict_the_game_did_not_know_still_says_where_it_ended() -> None:
    result, _, dialog = ending(over(0, "four in a row"), 1, lambda: None, None, 7)
    assert result is Result.LOST
    assert dialog == "The referee found the game over at move 7: four in a row. You lose."
