"""Computer opponents for X and 0: perfect play by memoised negamax, and weaker levels."""

from __future__ import annotations

import functools
import random

from ..board.rules import IllegalMoveError
from .rules import LINES, SIZE, Board, Move

__all__ = ["MAX_LEVEL", "MIN_LEVEL", "best_move", "choose_move", "move_scores"]

MIN_LEVEL = 1
"""The weakest level: uniformly random moves."""

MAX_LEVEL = 3
"""The strongest level: perfect play."""

NO_MOVES = "no legal moves in position {board!r}"
BAD_LEVEL = "level {level!r} is not in {lo}..{hi}"

_CELLS = SIZE * SIZE
_LINE_MASKS = tuple(sum(1 << (m.row * SIZE + m.col) for m in line) for line in LINES)
_FULL = (1 << _CELLS) - 1


def _has_line(bits: int) -> bool:
    return any(bits & mask == mask for mask in _LINE_MASKS)


@functools.cache
def _negamax(mine: int, theirs: int) -> int:
    """Returns the value for the side to move: (empty cells + 1) on a win, its negation on a loss.

    Scoring a win by the cells still empty when it lands prefers quick wins and slow losses.
    """
    empty = _FULL & ~(mine | theirs)
    if not empty:
        return 0
    best = -_CELLS - 1
    while empty:
        bit = empty & -empty
        empty ^= bit
        placed = mine | bit
        if _has_line(placed):
            # The winning move leaves (cells still empty) + 1; nothing can beat taking it.
            return (_FULL & ~(placed | theirs)).bit_count() + 1
        best = max(best, -_negamax(theirs, placed))
    return best


def _split(board: Board) -> tuple[int, int]:
    """Returns (bits of the side to move, bits of the opponent)."""
    return board.marks[board.turn], board.marks[1 - board.turn]


def move_scores(board: Board) -> dict[Move, int]:
    """Returns each legal move's perfect-play value: >0 wins (bigger is faster), 0 draws."""
    mine, theirs = _split(board)
    scores: dict[Move, int] = {}
    for move in board.legal_moves():
        placed = mine | (1 << (move.row * SIZE + move.col))
        if _has_line(placed):
            scores[move] = (_FULL & ~(placed | theirs)).bit_count() + 1
        else:
            scores[move] = -_negamax(theirs, placed)
    return scores


def _require_moves(board: Board) -> list[Move]:
    moves = board.legal_moves()
    if not moves:
        raise IllegalMoveError(NO_MOVES.format(board=board))
    return moves


def best_move(board: Board) -> Move:
    """Returns a perfect move: the quickest win, else a draw, else the slowest loss."""
    _require_moves(board)
    scores = move_scores(board)
    return max(scores, key=lambda m: scores[m])


def _win_in_one(board: Board, moves: list[Move]) -> Move | None:
    for move in moves:
        outcome = board.push(move).outcome()
        if outcome is not None and outcome.winner is not None:
            return move
    return None


def choose_move(board: Board, level: int, rng: random.Random) -> Move:
    """Returns a move at a level: 1 random, 2 wins or blocks in one, 3 perfect (random ties)."""
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(BAD_LEVEL.format(level=level, lo=MIN_LEVEL, hi=MAX_LEVEL))
    moves = _require_moves(board)
    if level == 1:
        return rng.choice(moves)
    if level == 2:
        win = _win_in_one(board, moves)
        if win is not None:
            return win
        # The opponent's winning cells are the ones to block.
        _, theirs = _split(board)
        for move in moves:
            if _has_line(theirs | (1 << (move.row * SIZE + move.col))):
                return move
        return rng.choice(moves)
    scores = move_scores(board)
    top = max(scores.values())
    return rng.choice([m for m in moves if scores[m] == top])


def judge(board: Board, player: int) -> int:
    """Returns the perfect-play value of the position for player: above 0 it wins, 0 it
    draws, below 0 it loses (the bot takes a draw unless it wins)."""
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == player else -1)
    best = max(move_scores(board).values())
    return best if board.turn == player else -best
