"""The referee of Dots and Boxes: the relay runs it with `--referee dots` (sdk.referee).

A box closed keeps the mover's turn: the partner, whom the relay gave the turn, passes."""

from __future__ import annotations

from ..board.referee import BoardReferee
from ..board.rules import Position
from .rules import Board, parse_move

__all__ = ["DotsReferee"]


def _won(board: Position[object]) -> str:
    assert isinstance(board, Board)
    first, second = board.score()
    return f"more boxes: {max(first, second)} to {min(first, second)}"


class DotsReferee(BoardReferee):
    """Judges a match of Dots and Boxes on its rules (examples.dots.rules)."""

    def __init__(self) -> None:
        super().__init__(Board.empty, parse_move, _won)
