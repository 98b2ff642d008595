"""A board game's text client: the shared Game and bot plugged into the terminal client."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..text.client import TextGame
from .game import BoardBot, BoardGame
from .protocols import Render, Words

__all__ = ["BOARD_FULL", "end_words", "text_game"]

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


def text_game(
    person: type[BoardGame[Any, Any]],
    bot: type[BoardBot[Any, Any]],
    *,
    how_to_move: str,
    render: Render,
    words: Words | None = None,
) -> TextGame[Any]:
    """Returns how the text client plays a board game: its person's and its bot's Game, and
    `words` (see end_words), how a game both sides agree is over ended, told with the result."""
    rules = person.rules

    def draw(game: BoardGame[Any, Any], color: bool) -> str:
        return render(game.board, game.last, color)

    def make_bot(level: int) -> Callable[..., BoardBot[Any, Any]]:
        return functools.partial(bot, level=level)

    return TextGame(
        key=rules.key,
        version=rules.version,
        title=rules.name,
        how_to_move=how_to_move,
        person=person,
        bot=make_bot,
        levels=rules.levels,
        draw=draw,
        words=None if words is None else (lambda game: words(game.board)),
    )
