"""A board game's text client: the shared Game and bot plugged into the terminal client."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..text.client import TextGame
from .game import BoardBot, BoardGame

__all__ = ["text_game"]

Render = Callable[[Any, Any, bool], str]
"""Draws a board as text: render(board, last move or None, colour)."""


def text_game(
    person: type[BoardGame[Any, Any]],
    bot: type[BoardBot[Any, Any]],
    *,
    how_to_move: str,
    render: Render,
) -> TextGame[Any]:
    """Returns how the text client plays a board game: its person's and its bot's Game."""
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
    )
