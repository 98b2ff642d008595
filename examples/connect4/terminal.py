"""Connect Four in the terminal: how its moves are typed and board drawn, and the command line."""

from __future__ import annotations

from collections.abc import Sequence

from ..board.terminal import text_game
from ..text.cli import main as run
from .game import Connect4Bot, Connect4Game
from .rules import render

HOW_TO_MOVE = "a column number, 0 (left) to 6"
CONNECT4 = text_game(Connect4Game, Connect4Bot, how_to_move=HOW_TO_MOVE, render=render)
"""Connect Four as the text client plays it."""

__all__ = ["CONNECT4", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Runs `python -m examples.connect4` with these arguments; returns the exit code."""
    return run(CONNECT4, argv)
