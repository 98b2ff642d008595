"""Dots and Boxes in the terminal: how its lines are typed and board drawn, and the command line."""

from __future__ import annotations

from collections.abc import Sequence

from ..board.terminal import text_game
from ..text.cli import main as run
from .game import DotsBot, DotsGame
from .rules import render

HOW_TO_MOVE = "a line: h or v, then the row and column of its top or left dot (h01, v12)"
DOTS = text_game(DotsGame, DotsBot, how_to_move=HOW_TO_MOVE, render=render)
"""Dots and Boxes as the text client plays it."""

__all__ = ["DOTS", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Runs `python -m examples.dots` with these arguments; returns the exit code."""
    return run(DOTS, argv)
