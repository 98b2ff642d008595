"""X and 0 in the terminal: how its board is drawn and its moves typed, and the command line."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..text.cli import main as run
from ..text.client import TextGame
from . import bot
from .game import GAME_KEY, VERSION, Xand0Bot, Xand0Game
from .rules import render

__all__ = ["XAND0", "main"]


def _draw(game: Xand0Game, color: bool) -> str:
    return render(game.board, game.last, color)


def _bot(level: int) -> functools.partial[Xand0Bot]:
    return functools.partial(Xand0Bot, level=level)


XAND0: TextGame[Xand0Game] = TextGame(
    key=GAME_KEY,
    version=VERSION,
    title="X and 0",
    how_to_move="two digits, column then row (21 is column 2, row 1)",
    person=Xand0Game,
    bot=_bot,
    levels=(bot.MIN_LEVEL, bot.MAX_LEVEL),
    draw=_draw,
)
"""X and 0 as the text client plays it."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs `python -m examples.xand0` with these arguments; returns the exit code."""
    return run(XAND0, argv)
