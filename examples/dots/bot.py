"""The Dots and Boxes bot: level 1 draws any line; level 2 closes every box it can and, until
it must, never draws a box's third side (which would hand the box to the partner)."""

from __future__ import annotations

import random

from .rules import BOXES, Board, Line, box_sides

__all__ = ["MAX_LEVEL", "MIN_LEVEL", "choose_move"]

MIN_LEVEL = 1
"""Random lines."""
MAX_LEVEL = 2
"""Greedy and careful: takes boxes, gives none away while it can help it."""


def _sides_drawn(board: Board, row: int, col: int) -> int:
    return sum(board.is_drawn(side) for side in box_sides(row, col))


def _boxes_of(line: Line) -> list[tuple[int, int]]:
    """Returns the boxes (row, col) a line is a side of: one or two."""
    if line.kind == "h":
        candidates = [(line.row - 1, line.col), (line.row, line.col)]
    else:
        candidates = [(line.row, line.col - 1), (line.row, line.col)]
    return [(r, c) for r, c in candidates if 0 <= r < BOXES and 0 <= c < BOXES]


def choose_move(board: Board, level: int, rng: random.Random) -> Line:
    """Returns the line to draw at this level (the board must not be over)."""
    legal = board.legal_moves()
    if level <= MIN_LEVEL:
        return rng.choice(legal)
    closing = [m for m in legal if any(_sides_drawn(board, *b) == 3 for b in _boxes_of(m))]
    if closing:
        return rng.choice(closing)
    safe = [m for m in legal if all(_sides_drawn(board, *b) < 2 for b in _boxes_of(m))]
    return rng.choice(safe or legal)


def judge(board: Board, player: int) -> int:
    """Returns how many boxes player leads by (the bot takes a draw unless it leads)."""
    return board.boxes[player].bit_count() - board.boxes[1 - player].bit_count()
