"""The referee of X and 0: the relay runs it with `--referee xand0` (sdk.referee)."""

from __future__ import annotations

from ..board.referee import BoardReferee
from .rules import Board, parse_move

__all__ = ["Xand0Referee"]


class Xand0Referee(BoardReferee):
    """Judges a match of X and 0 on its rules (examples.xand0.rules)."""

    def __init__(self) -> None:
        super().__init__(Board, parse_move, lambda board: "three in a row")
