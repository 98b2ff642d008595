"""The classic "Connect-4: Human versus Machine" engine (Pomakis' c4.c), the reference opponent.

The engine keeps, for each player and each of the 69 winning lines, a line score that starts
at 1, doubles with each of the player's pieces dropped into the line, and drops to 0 for good
once the opponent has a piece there. A player's score is the sum of its line scores; a
position is worth the mover's score minus the opponent's. Moves are chosen by a fixed-depth
alpha-beta search that tries the centre columns first and scores a win as a huge number
minus the depth at which it happens. Two openings are built in, as in the original: the
first move is the centre, and so is the reply to a centre opening.

The one deliberate difference: where the original scores a completely full board as a win
for whoever filled it (an artefact of its empty move loop), this one scores it as a draw.
"""

from __future__ import annotations

import random

from ..board.rules import IllegalMoveError
from .rules import HEIGHT, STRIDE, WIDTH, WIN_LINES, Board

__all__ = ["DROP_ORDER", "MAX_DEPTH", "WIN_SCORE", "classic_move", "line_scores", "position_value"]

MAX_DEPTH = 20
"""The deepest search accepted, matching the original's ``C4_MAX_LEVEL``."""

WIN_SCORE = 2**31 - 1
"""The value of a win at the root; a win found deeper is worth this minus its depth."""

NO_MOVES = "no legal moves in position {board!r}"
BAD_DEPTH = "depth {depth!r} is not in 1..{max}"


def _drop_order() -> tuple[int, ...]:
    order, column = [], (WIDTH - 1) // 2
    for i in range(1, WIDTH + 1):
        order.append(column)
        column += i if i % 2 else -i
    return tuple(order)


DROP_ORDER = _drop_order()
"""The order columns are tried in: centre first, then alternately right and left."""

_WIN_LINE_SCORE = 1 << 4
_CELL_LINES: list[tuple[int, ...]] = [() for _ in range(WIDTH * STRIDE)]
for _index, _line in enumerate(WIN_LINES):
    for _col, _row in _line:
        _CELL_LINES[_col * STRIDE + _row] += (_index,)
_CENTRE = (WIDTH - 1) // 2


def line_scores(board: Board) -> tuple[list[int], list[int]]:
    """Returns each player's 69 line scores: 2**pieces while unblocked, 0 once blocked."""
    scores: tuple[list[int], list[int]] = ([1] * len(WIN_LINES), [1] * len(WIN_LINES))
    for index, line in enumerate(WIN_LINES):
        counts = [0, 0]
        for col, row in line:
            player = board.piece_at(col, row)
            if player is not None:
                counts[player] += 1
        for player in (0, 1):
            blocked = counts[1 - player] > 0
            scores[player][index] = 0 if blocked else 1 << counts[player]
    return scores


def position_value(board: Board, player: int) -> int:
    """Returns the classic static value for a player: its line scores minus the opponent's."""
    scores = line_scores(board)
    return sum(scores[player]) - sum(scores[1 - player])


def classic_move(board: Board, depth: int, rng: random.Random | None = None) -> int:
    """Returns the classic engine's column at a search depth; rng breaks ties between equals.

    Without rng, ties go to the first column in ``DROP_ORDER``; with it, a uniformly random
    one of the equally good columns, as the original does with ``rand()``.
    """
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(BAD_DEPTH.format(depth=depth, max=MAX_DEPTH))
    if board.is_game_over() or not board.legal_moves():
        raise IllegalMoveError(NO_MOVES.format(board=board))
    # The built-in opening: centre first, and centre again in reply to a centre opening.
    if board.ply == 0 or (board.ply == 1 and board.piece_at(_CENTRE, 0) is not None):
        return _CENTRE

    heights = [board.height(c) for c in range(WIDTH)]
    scores = line_scores(board)
    totals = [sum(scores[0]), sum(scores[1])]
    me = board.turn

    def drop(
        player: int, col: int, lines: tuple[list[int], list[int]]
    ) -> tuple[tuple[list[int], list[int]], int, int, bool]:
        """Drops a piece, returning the new line scores, both score changes and whether it won."""
        own, other = lines[player][:], lines[1 - player][:]
        gained = lost = 0
        won = False
        for index in _CELL_LINES[col * STRIDE + heights[col]]:
            gained += own[index]
            lost += other[index]
            own[index] <<= 1
            other[index] = 0
            if own[index] == _WIN_LINE_SCORE:
                won = True
        heights[col] += 1
        new_lines = (own, other) if player == 0 else (other, own)
        return new_lines, gained, lost, won

    def evaluate(
        player: int, level: int, alpha: int, beta: int, lines: tuple[list[int], list[int]]
    ) -> int:
        """Returns the value for the player who just moved, searching ``level`` more plies."""
        if level == 0:
            return totals[player] - totals[1 - player]
        opponent = 1 - player
        best, max_ab, moved = -WIN_SCORE, alpha, False
        for col in DROP_ORDER:
            if heights[col] == HEIGHT:
                continue
            moved = True
            new_lines, gained, lost, won = drop(opponent, col, lines)
            totals[opponent] += gained
            totals[player] -= lost
            if won:
                goodness = WIN_SCORE - (depth - level + 1)
            else:
                goodness = evaluate(opponent, level - 1, -beta, -max_ab, new_lines)
            totals[opponent] -= gained
            totals[player] += lost
            heights[col] -= 1
            if goodness > best:
                best = goodness
                max_ab = max(max_ab, best)
            if best > beta:
                break
        if not moved:
            return totals[player] - totals[1 - player]
        return -best

    best_column, best_worst, equals = -1, -WIN_SCORE, 0
    for col in DROP_ORDER:
        if heights[col] == HEIGHT:
            continue
        new_lines, gained, lost, won = drop(me, col, scores)
        if won:
            heights[col] -= 1
            return col
        totals[me] += gained
        totals[1 - me] -= lost
        goodness = evaluate(me, depth - 1, -WIN_SCORE, -best_worst, new_lines)
        totals[me] -= gained
        totals[1 - me] += lost
        heights[col] -= 1
        if goodness > best_worst or best_column < 0:
            best_worst, best_column, equals = goodness, col, 1
        elif goodness == best_worst and rng is not None:
            equals += 1
            if rng.randrange(equals) == 0:
                best_column = col
    return best_column
