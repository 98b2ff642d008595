"""Connect Four in the terminal: how its board is drawn and moves typed, and the command line."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..text.cli import main as run
from ..text.client import TextGame
from . import bot
from .game import GAME_KEY, VERSION, Connect4Bot, Connect4Game
from .rules import render

__all__ = ["CONNECT4", "main"]


def _draw(game: Connect4Game, color: bool) -> str:
    return render(game.board, game.last, color)


def _bot(level: int) -> functools.partial[Connect4Bot]:
    return functools.partial(Connect4Bot, level=level)


CONNECT4: TextGame[Connect4Game] = TextGame(
    key=GAME_KEY,
    version=VERSION,
    title="Connect Four",
    how_to_move="a column number, 0 (left) to 6",
    person=Connect4Game,
    bot=_bot,
    levels=(bot.MIN_LEVEL, bot.MAX_LEVEL),
    draw=_draw,
)
"""Connect Four as the text client plays it."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs `python -m examples.connect4` with these arguments; returns the exit code."""
    return run(CONNECT4, argv)
