"""X and 0 in the terminal: how its moves are typed and its board drawn, and the command line."""

from __future__ import annotations

from collections.abc import Sequence

from ..board.terminal import text_game
from ..text.cli import main as run
from .game import Xand0Bot, Xand0Game
from .rules import render

__all__ = ["XAND0", "main"]

HOW_TO_MOVE = "two digits, column then row (21 is column 2, row 1)"
XAND0 = text_game(Xand0Game, Xand0Bot, how_to_move=HOW_TO_MOVE, render=render)
"""X and 0 as the text client plays it."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the X and 0 client (`python -m examples.xand0`); returns the exit code."""
    return run(XAND0, argv)
