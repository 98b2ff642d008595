"""Connect Four as an SDK Game: the shared board game over the Connect Four rules, and its bot."""

from __future__ import annotations

from ..board.game import BoardBot, BoardGame, Rules
from .bot import DEFAULT_BUDGET, MAX_LEVEL, choose_move
from .rules import Board, Move, format_move, parse_move

__all__ = ["GAME_KEY", "RULES", "VERSION", "Connect4Bot", "Connect4Game"]

RULES: Rules[Board, Move] = Rules(
    "Connect Four", "connect4", "1", Board.empty, parse_move, format_move
)
"""The Connect Four rules; version 1 of its move strings: the column, '0' (left) to '6'."""
GAME_KEY, VERSION = RULES.key, RULES.version


class Connect4Game(BoardGame[Board, Move]):
    """One side of a game of Connect Four: keeps the board and speaks the move strings ("3")."""

    rules = RULES


class Connect4Bot(BoardBot[Board, Move], Connect4Game):
    """A computer opponent for Connect Four: level 1 (near random) to MAX_LEVEL (the engine)."""

    max_level = MAX_LEVEL

    time_budget = DEFAULT_BUDGET
    """Seconds of search per move at the strongest level."""

    def choose(self, board: Board) -> Move:
        """Returns the move the engine picks at this level, within the time budget."""
        return choose_move(board, self.level, self.rng, self.time_budget)
