"""A board game's text client: the shared Game and bot plugged into the terminal client."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..text.client import TextGame
from .game import BoardBot, BoardGame
from .protocols import Render, Words
from .words import BOARD_FULL, end_words

__all__ = ["BOARD_FULL", "end_words", "text_game"]


def text_game(
    person: type[BoardGame[Any, Any]],
    bot: type[BoardBot[Any, Any]],
    *,
    how_to_move: str,
    render: Render,
    words: Words | None = None,
) -> TextGame[Any]:
    """Returns how the text client plays a board game: its person's and its bot's Game, and
    `words` (see end_words), how a game both sides agree is over ended, told with the result
    when the ender's game sent none (default: the rules' own, `Rules.words`)."""
    rules = person.rules
    words = rules.words if words is None else words

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
