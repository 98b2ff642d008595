"""How a finished board ended, in a game's own words: what `Rules.words` and `text_game`'s
`words=` give, sent with the game-ending move and told on both sides (docs/kits.md)."""

from __future__ import annotations

from typing import Any

from .protocols import Words

__all__ = ["BOARD_FULL", "end_words"]

BOARD_FULL = "the board is full"
"""How the example boards' draws end, in their referees' words."""


def end_words(won: Words, drawn: str = BOARD_FULL) -> Words:
    """Returns the words of a board once its game is over: won(board) for a win ("four in a
    row", as the game's referee says it), `drawn` for a draw; "" while the game goes on."""

    def words(board: Any) -> str:
        outcome = board.outcome()
        if outcome is None:
            return ""
        return drawn if outcome.winner is None else won(board)

    return words
