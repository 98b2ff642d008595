"""X and 0 as an SDK Game: the shared board game over the X and 0 rules, and its bot."""

from __future__ import annotations

from ..board.game import BoardBot, BoardGame, Rules
from ..board.words import end_words
from .bot import MAX_LEVEL, MIN_LEVEL, choose_move, judge
from .referee import Xand0Referee
from .rules import Board, Move, format_move, parse_move

__all__ = ["GAME_KEY", "RULES", "VERSION", "Xand0Bot", "Xand0Game"]

RULES: Rules[Board, Move] = Rules(
    "X and 0", "xand0", "1", Board.empty, parse_move, format_move, choose_move,
    (MIN_LEVEL, MAX_LEVEL), judge=judge, words=end_words(Xand0Referee().won),
)  # fmt: skip
"""X and 0; version 1 of its move strings: two digits 'ij', column i then row j; bots from
level 1 (random) to 3 (perfect); its end told in its referee's words."""
GAME_KEY, VERSION = RULES.key, RULES.version


class Xand0Game(BoardGame[Board, Move]):
    """One side of a game of X and 0 (moves such as "21")."""

    rules = RULES


class Xand0Bot(BoardBot[Board, Move], Xand0Game):
    """A computer opponent for X and 0."""
