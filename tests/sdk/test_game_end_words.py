"""A game's own words for how it ended (Game.end_words): sent with the game-ending move, told to
both sides in a dialog with the result, and kept as the agreed end's detail in the Outcome."""

from __future__ import annotations

from sdk import Reason, Result
from sdk._endings import ending
from sdk.events import Ended
from sdk.testing import play_pair
from tests.sdk.counting import Counter


class Teller(Counter):
    """Counts to 5, and says how it ended."""

    def end_words(self) -> str:
        return "counted to 5" if self.count >= 5 else ""


class Rambler(Counter):
    """Counts to 5, and says how it ended with a line break and far too many words."""

    def end_words(self) -> str:
        return "counted\nto five " + "and on " * 60


async def test_both_sides_are_told_the_enders_words_and_the_outcome_keeps_them() -> None:
    pair = await play_pair(Teller, Teller, timeout=20)
    assert [outcome.reason for outcome in pair.outcomes] == [Reason.AGREED, Reason.AGREED]
    assert [outcome.detail for outcome in pair.outcomes] == ["counted to 5", "counted to 5"]
    assert [outcome.message for outcome in pair.outcomes] == ["A draw: counted to 5."] * 2
    assert pair.dialogs == (["A draw: counted to 5."], ["A draw: counted to 5."])


async def test_a_game_without_words_ends_as_before_with_no_dialog() -> None:
    pair = await play_pair(Counter, Counter, timeout=20)
    assert [(outcome.reason, outcome.detail) for outcome in pair.outcomes] == [
        (Reason.AGREED, ""),
        (Reason.AGREED, ""),
    ]
    assert pair.dialogs == ([], [])


async def test_words_the_relay_would_refuse_are_cleaned_and_cut_not_lost() -> None:
    pair = await play_pair(Rambler, Rambler, timeout=20)
    sent = ("counted to five " + "and on " * 60).strip()[:200].rstrip()
    assert [outcome.reason for outcome in pair.outcomes] == [Reason.AGREED, Reason.AGREED]
    assert [outcome.detail for outcome in pair.outcomes] == [sent, sent]


def test_an_agreed_end_with_words_is_told_with_this_sides_result() -> None:
    said = Ended(9, "agreed", 1, detail="three mills")
    won = "You win: three mills."
    assert ending(said, 0, lambda: Result.WON) == (Result.WON, Reason.AGREED, won)
    assert ending(said, 1, lambda: Result.LOST) == (
        Result.LOST, Reason.AGREED, "You lose: three mills.",
    )  # fmt: skip
    # A game that cannot tell its result is not told one.
    assert ending(said, 1, lambda: None) == (Result.UNKNOWN, Reason.AGREED, None)
