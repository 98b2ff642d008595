"""X and 0 as an SDK Game: the shared board game over the X and 0 rules, and its bot."""

from __future__ import annotations

from ..board.game import BoardBot, BoardGame, Rules
from .bot import MAX_LEVEL, choose_move
from .rules import Board, Move, format_move, parse_move

__all__ = ["GAME_KEY", "RULES", "VERSION", "Xand0Bot", "Xand0Game"]

RULES: Rules[Board, Move] = Rules("X and 0", "xand0", "1", Board.empty, parse_move, format_move)
"""The X and 0 rules; version 1 of its move strings: two digits 'ij', column i then row j."""
GAME_KEY, VERSION = RULES.key, RULES.version


class Xand0Game(BoardGame[Board, Move]):
    """One side of a game of X and 0: keeps the board and speaks the move strings ("21")."""

    rules = RULES


class Xand0Bot(BoardBot[Board, Move], Xand0Game):
    """A computer opponent for X and 0: level 1 (random) to MAX_LEVEL (perfect)."""

    max_level = MAX_LEVEL

    def choose(self, board: Board) -> Move:
        """Returns the move the engine picks at this level."""
        return choose_move(board, self.level, self.rng)
