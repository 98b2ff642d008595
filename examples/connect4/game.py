"""Connect Four as an SDK Game: the shared board game over the Connect Four rules, and its bot."""

from __future__ import annotations

from ..board.game import BoardBot, BoardGame, Rules
from ..board.words import end_words
from . import bot
from .referee import DRAW, FOUR
from .rules import Board, Move, format_move, parse_move

__all__ = ["GAME_KEY", "RULES", "VERSION", "Connect4Bot", "Connect4Game"]

RULES: Rules[Board, Move] = Rules(
    name="Connect Four",
    key="connect4",
    version="1",
    empty=Board.empty,
    parse_move=parse_move,
    format_move=format_move,
    choose_move=bot.choose_move,  # the strongest level searches up to bot.DEFAULT_BUDGET
    levels=(bot.MIN_LEVEL, bot.MAX_LEVEL),
    timed_move=lambda board, level, rng, budget: bot.choose_move(
        board, level, rng, min(budget, bot.DEFAULT_BUDGET)
    ),
    judge=bot.judge,
    words=end_words(lambda board: FOUR, DRAW),
)
"""Connect Four; version 1 of its move strings: the column, '0' (left) to '6'."""
GAME_KEY, VERSION = RULES.key, RULES.version


class Connect4Game(BoardGame[Board, Move]):
    """One side of a game of Connect Four: keeps the board and speaks the move strings ("3")."""

    rules = RULES


class Connect4Bot(BoardBot[Board, Move], Connect4Game):
    """A computer opponent for Connect Four: level 1 (near random) to the full engine."""
