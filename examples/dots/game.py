"""Dots and Boxes as an SDK Game: the shared board game over its rules, and its bot.

Started from `python -m sdk.new dots`: the skeleton's own Game gave way to the shared one,
whose answers follow the rules' turn, so that closing a box makes the partner pass.
"""

from __future__ import annotations

from ..board.game import BoardBot, BoardGame, Rules
from ..board.words import end_words
from .bot import MAX_LEVEL, MIN_LEVEL, choose_move, judge
from .referee import DotsReferee
from .rules import Board, Line, format_move, parse_move

__all__ = ["GAME_KEY", "RULES", "VERSION", "DotsBot", "DotsGame"]

RULES: Rules[Board, Line] = Rules(
    "Dots and Boxes", "dots", "1", Board.empty, parse_move, format_move, choose_move,
    (MIN_LEVEL, MAX_LEVEL), judge=judge, words=end_words(DotsReferee().won),
)  # fmt: skip
"""Dots and Boxes; version 1 of its move strings: a line, "h01" or "v12"; its end told in its
referee's words."""
GAME_KEY, VERSION = RULES.key, RULES.version


class DotsGame(BoardGame[Board, Line]):
    """One side of Dots and Boxes: keeps the board, speaks the lines ("h01"), passes when the
    partner closed a box."""

    rules = RULES


class DotsBot(BoardBot[Board, Line], DotsGame):
    """A computer opponent: level 1 (random) or 2 (takes boxes, gives none away if it can)."""
