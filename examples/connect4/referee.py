"""The referee of Connect Four: the relay runs it with `--referee connect4` (sdk.referee)."""

from __future__ import annotations

from ..board.referee import BoardReferee
from .rules import Board, parse_move

__all__ = ["Connect4Referee"]


class Connect4Referee(BoardReferee):
    """Judges a match of Connect Four on its rules (examples.connect4.rules)."""

    def __init__(self) -> None:
        super().__init__(Board, parse_move, lambda board: "four in a row")
