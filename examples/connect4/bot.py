"""A strong Connect Four engine: bitboard negamax with a transposition table and exact endgames.

Positions are searched as two ints, as in Pascal Pons' solver: ``pos`` holds the pieces of the
side to move and ``mask`` all pieces (the layout of ``examples.connect4.rules``). Every node
first takes a win in one, then narrows the moves to the ones that do not hand the opponent a
win in one (a forced block, and never playing under an opponent's winning cell); nodes left
with a single such move are searched without using up depth.

Midgame positions get iterative deepening within a time budget over a heuristic evaluation of
threats (cells that would complete a four) weighted by row parity, stacked threats, open
twos and centre pieces. From ``EXACT_EMPTY_CELLS`` empty cells on, the engine solves the
position exactly instead.
"""

from __future__ import annotations

import contextlib
import math
import random
import time

from ..board.rules import IllegalMoveError
from .rules import (
    BOARD_MASK,
    BOTTOM_MASK,
    COLUMN_MASKS,
    HEIGHT,
    STRIDE,
    WIDTH,
    Board,
    Move,
    cell_bit,
    winning_cells,
)

__all__ = [
    "DEFAULT_BUDGET",
    "EXACT_EMPTY_CELLS",
    "LEVEL_DEPTHS",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "SOLVE_EMPTY_CELLS",
    "SOLVE_SHARE",
    "WIN_SCORE",
    "best_move",
    "choose_move",
    "evaluate",
    "solve",
]

MIN_LEVEL = 1
"""The weakest level: takes a win in one, otherwise plays at random."""

MAX_LEVEL = 5
"""The strongest level: iterative deepening within a time budget and exact endgames."""

LEVEL_DEPTHS = {2: 2, 3: 4, 4: 6}
"""The fixed search depth of each intermediate level."""

DEFAULT_BUDGET = 2.0
"""Seconds of search per move at the strongest level, at most: most moves take far less (a
forced move, a win in one, an endgame solved at once)."""

EXACT_EMPTY_CELLS = 16
"""At most this many empty cells, the strongest level solves the position exactly."""

SOLVE_EMPTY_CELLS = 30
"""At most this many empty cells, the strongest level first tries to solve within its budget."""

SOLVE_SHARE = 0.6
"""The share of the time budget spent trying to solve before the heuristic search."""

WIN_SCORE = 100_000
"""Heuristic-search value of a win on the spot; a win on ply n is worth ``WIN_SCORE - n``."""

NO_MOVES = "no legal moves in position {board!r}"
BAD_LEVEL = "level {level!r} is not in {lo}..{hi}"

_CELLS = WIDTH * HEIGHT
_INF = 10 * WIN_SCORE
_CENTRE_ORDER = (3, 2, 4, 1, 5, 0, 6)
_CENTRE_COLUMN_MASKS = tuple(COLUMN_MASKS[c] for c in _CENTRE_ORDER)
_EXACT, _LOWER, _UPPER = 0, 1, 2
# Rows 0, 2, 4 (the odd rows counting from 1) favour the first player, the others the second.
_GOOD_ROWS = (
    sum(cell_bit(c, r) for c in range(WIDTH) for r in range(0, HEIGHT, 2)),
    sum(cell_bit(c, r) for c in range(WIDTH) for r in range(1, HEIGHT, 2)),
)
_CENTRE = COLUMN_MASKS[3]
_NEAR_CENTRE = COLUMN_MASKS[2] | COLUMN_MASKS[4]
W_THREAT = 40
"""Evaluation weight of a threat (a cell completing a four) not right above an enemy threat."""
W_PARITY = 40
"""Extra weight of a threat on a row of the owner's parity (rows 0, 2, 4 for the first player)."""
W_STACKED = 200
"""Weight of two threats one above the other, which win once the column gets there."""
W_CENTRE = 6
"""Weight of a piece in the centre column (half of it for the columns next to the centre)."""
W_ZUGZWANG = 150
"""Weight of a threat that wins the zugzwang fight by Allis' rules (see ``_evaluate``)."""
W_FILL = 40
"""Weight of a four made when the empty cells are filled by row parity (see ``_evaluate``)."""


class _Timeout(Exception):
    """Raised inside a search when its deadline has passed."""


def _evaluate(pos: int, mask: int, moves: int, mine: int, theirs: int) -> int:
    """Returns the heuristic value of a quiet position for the side to move.

    ``mine`` and ``theirs`` are the winning cells of the side to move and of its opponent.
    Connect Four endgames are decided by zugzwang: when players answer in the column just
    played, the first player ends up with the empty cells on rows 0, 2, 4 and the second with
    those on rows 1, 3, 5, so threats and lines are worth most on their owner's parity.
    """
    opp = pos ^ mask
    me = moves & 1
    mine_rows, theirs_rows = _GOOD_ROWS[me], _GOOD_ROWS[1 - me]
    # A threat right above one of the opponent's is worthless: the opponent's comes first.
    my_live = mine & ~(theirs << 1)
    their_live = theirs & ~(mine << 1)
    value = W_THREAT * (my_live.bit_count() - their_live.bit_count())
    value += W_PARITY * ((my_live & mine_rows).bit_count() - (their_live & theirs_rows).bit_count())
    value += W_STACKED * ((mine & (mine >> 1)).bit_count() - (theirs & (theirs >> 1)).bit_count())
    value += W_CENTRE * ((pos & _CENTRE).bit_count() - (opp & _CENTRE).bit_count())
    value += (W_CENTRE // 2) * ((pos & _NEAR_CENTRE).bit_count() - (opp & _NEAR_CENTRE).bit_count())
    # Allis' rules, roughly: the first player wins with a threat on its parity that no threat
    # of the second player's undercuts in the same column; failing that, so does the second.
    firsts, seconds = (mine, theirs) if me == 0 else (theirs, mine)
    if firsts & _GOOD_ROWS[0] & ~_above(seconds):
        value += W_ZUGZWANG if me == 0 else -W_ZUGZWANG
    elif seconds & _GOOD_ROWS[1] & ~_above(firsts):
        value += W_ZUGZWANG if me == 1 else -W_ZUGZWANG
    empty = BOARD_MASK ^ mask
    value += W_FILL * (_fours(pos | (empty & mine_rows)) - _fours(opp | (empty & theirs_rows)))
    return value


def _above(bits: int) -> int:
    """Returns the cells above any of ``bits`` in the same column."""
    # One row at a time, so that the empty sentinel row stops each column's smear.
    above = (bits << 1) & BOARD_MASK
    above |= (above << 1) & BOARD_MASK
    above |= (above << 1) & BOARD_MASK
    above |= (above << 1) & BOARD_MASK
    above |= (above << 1) & BOARD_MASK
    return above


def _fours(bits: int) -> int:
    """Returns the number of four-in-a-row windows fully inside ``bits``."""
    pairs = bits & (bits >> 1)
    total = (pairs & (pairs >> 2)).bit_count()
    pairs = bits & (bits >> STRIDE)
    total += (pairs & (pairs >> 2 * STRIDE)).bit_count()
    pairs = bits & (bits >> (STRIDE - 1))
    total += (pairs & (pairs >> 2 * (STRIDE - 1))).bit_count()
    pairs = bits & (bits >> (STRIDE + 1))
    return total + (pairs & (pairs >> 2 * (STRIDE + 1))).bit_count()


def _non_losing(pos: int, mask: int) -> tuple[int, int]:
    """Returns (moves not giving the opponent a win in one, the opponent's winning cells)."""
    possible = (mask + BOTTOM_MASK) & BOARD_MASK
    theirs = winning_cells(pos ^ mask, mask)
    forced = possible & theirs
    if forced:
        if forced & (forced - 1):
            return 0, theirs
        possible = forced
    return possible & ~(theirs >> 1), theirs


def _ordered(pos: int, mask: int, candidates: int) -> list[tuple[int, int, int]]:
    """Returns (rank, move bit, winning cells after it) per candidate, best first.

    Moves creating the most threats come first, then the central ones; the winning cells are
    handed to the child search, which needs them as its opponent's threats.
    """
    if not candidates:
        return []
    if not candidates & (candidates - 1):
        return [(0, candidates, winning_cells(pos | candidates, mask | candidates))]
    scored = []
    for rank, column_mask in enumerate(_CENTRE_COLUMN_MASKS):
        move = candidates & column_mask
        if move:
            cells = winning_cells(pos | move, mask | move)
            scored.append((cells.bit_count() * 8 - rank, move, cells))
    scored.sort(reverse=True)
    return scored


def _column(move: int) -> Move:
    return (move.bit_length() - 1) // STRIDE


class _Solver:
    """Exact negamax with alpha-beta and a transposition table of bounds (Pons' scores)."""

    def __init__(self, deadline: float = math.inf) -> None:
        self.upper: dict[int, int] = {}
        self.lower: dict[int, int] = {}
        self.refutations: dict[int, int] = {}
        self.nodes = 0
        self.deadline = deadline

    def negamax(self, pos: int, mask: int, moves: int, alpha: int, beta: int, theirs: int) -> int:
        """Returns the exact score within (alpha, beta) of a position with no win in one.

        ``theirs`` is the opponent's winning cells.
        """
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise _Timeout
        possible = (mask + BOTTOM_MASK) & BOARD_MASK
        forced = possible & theirs
        if forced:
            if forced & (forced - 1):
                return -((_CELLS - moves) // 2)
            possible = forced
        # Never play right under an opponent's winning cell.
        candidates = possible & ~(theirs >> 1)
        if not candidates:
            return -((_CELLS - moves) // 2)
        if moves >= _CELLS - 2:
            return 0
        low = -((_CELLS - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (_CELLS - 1 - moves) // 2
        key = pos + mask
        bound = self.upper.get(key)
        if bound is not None and bound < high:
            high = bound
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        bound = self.lower.get(key)
        if bound is not None and bound > alpha:
            alpha = bound
            if alpha >= beta:
                return alpha
        opp = pos ^ mask
        # The move that last refuted this position usually refutes it again: try it before
        # paying for the ordering of the others.
        first = self.refutations.get(key, 0) & candidates
        if first:
            cells = winning_cells(pos | first, mask | first)
            score = -self.negamax(opp, mask | first, moves + 1, -beta, -alpha, cells)
            if score >= beta:
                self.lower[key] = score
                return score
            alpha = max(alpha, score)
            candidates ^= first
        for _, move, cells in _ordered(pos, mask, candidates):
            score = -self.negamax(opp, mask | move, moves + 1, -beta, -alpha, cells)
            if score >= beta:
                self.lower[key] = score
                self.refutations[key] = move
                return score
            alpha = max(alpha, score)
        self.upper[key] = alpha
        return alpha

    def solve(self, pos: int, mask: int, moves: int) -> int:
        """Returns the exact score of a position by a sequence of null-window searches."""
        if winning_cells(pos, mask) & (mask + BOTTOM_MASK) & BOARD_MASK:
            return (_CELLS + 1 - moves) // 2
        theirs = winning_cells(pos ^ mask, mask)
        low, high = -((_CELLS - moves) // 2), (_CELLS + 1 - moves) // 2
        while low < high:
            mid = low + (high - low) // 2
            # Probe near zero first: most positions are decided or drawn, not close.
            if mid <= 0 and int(low / 2) < mid:
                mid = int(low / 2)
            elif mid >= 0 and high // 2 > mid:
                mid = high // 2
            score = self.negamax(pos, mask, moves, mid, mid + 1, theirs)
            if score <= mid:
                high = score
            else:
                low = score
        return low


class _Engine:
    """Heuristic alpha-beta (PVS) with a transposition table and a deadline."""

    def __init__(self, deadline: float = math.inf) -> None:
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.iteration_best = (-_INF, 0)
        self.nodes = 0
        self.deadline = deadline

    def search(
        self,
        pos: int,
        mask: int,
        moves: int,
        depth: int,
        alpha: int,
        beta: int,
        mine: int,
        theirs: int,
    ) -> int:
        """Returns the value for the side to move, searching ``depth`` plies (fail-soft).

        ``mine`` and ``theirs`` are the winning cells of the side to move and its opponent.
        """
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise _Timeout
        possible = (mask + BOTTOM_MASK) & BOARD_MASK
        if mine & possible:
            return WIN_SCORE - moves - 1
        forced = possible & theirs
        if forced:
            if forced & (forced - 1):
                return moves + 2 - WIN_SCORE
            possible = forced
        candidates = possible & ~(theirs >> 1)
        if not candidates:
            return moves + 2 - WIN_SCORE
        if moves >= _CELLS - 2:
            return 0
        single = not candidates & (candidates - 1)
        if depth <= 0 and not single:
            return _evaluate(pos, mask, moves, mine, theirs)
        key = pos + mask
        entry = self.table.get(key)
        first = 0
        if entry is not None:
            stored_depth, flag, value, first = entry
            if stored_depth >= depth and (
                flag == _EXACT
                or (flag == _LOWER and value >= beta)
                or (flag == _UPPER and value <= alpha)
            ):
                return value
            first &= candidates
        # A forced reply costs no depth: it keeps tactical lines from ending at the horizon.
        child_depth = depth if single else depth - 1
        opp = pos ^ mask
        best, best_move, original_alpha = -_INF, 0, alpha
        if first:
            cells = winning_cells(pos | first, mask | first)
            best = -self.search(
                opp, mask | first, moves + 1, child_depth, -beta, -alpha, theirs & ~first, cells
            )
            best_move = first
            alpha = max(alpha, best)
            candidates ^= first
        for _, move, cells in _ordered(pos, mask, candidates) if alpha < beta else ():
            child_mine = theirs & ~move
            if not best_move:
                value = -self.search(
                    opp, mask | move, moves + 1, child_depth, -beta, -alpha, child_mine, cells
                )
            else:
                # Principal variation search: prove the move no better with a null window.
                value = -self.search(
                    opp, mask | move, moves + 1, child_depth, -alpha - 1, -alpha, child_mine, cells
                )
                if alpha < value < beta:
                    value = -self.search(
                        opp, mask | move, moves + 1, child_depth, -beta, -value, child_mine, cells
                    )
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best >= beta:
            flag = _LOWER
        elif best <= original_alpha:
            flag = _UPPER
        else:
            flag = _EXACT
        self.table[key] = (depth, flag, best, best_move)
        return best

    def root(
        self, pos: int, mask: int, moves: int, max_depth: int, candidates: int
    ) -> tuple[int, int]:
        """Returns (value, move bit) by iterative deepening over candidates until the deadline."""
        ordered = _ordered(pos, mask, candidates)
        best_value, best_move = -_INF, ordered[0][1]
        for depth in range(1, max_depth + 1):
            self.iteration_best = (-_INF, 0)
            try:
                value, move = self._root_iteration(pos, mask, moves, depth, ordered)
            except _Timeout:
                # The unfinished iteration searched the previous best first, so any move it
                # settled on is at least as good, and seen deeper.
                value, move = self.iteration_best
                if move:
                    best_value, best_move = value, move
                break
            best_value, best_move = value, move
            ordered.sort(key=lambda entry: entry[1] != move)
            if abs(value) > WIN_SCORE - _CELLS - 1:
                break  # proven win or loss: deeper search cannot change it
        return best_value, best_move

    def _root_iteration(
        self, pos: int, mask: int, moves: int, depth: int, ordered: list[tuple[int, int, int]]
    ) -> tuple[int, int]:
        opp = pos ^ mask
        theirs = winning_cells(opp, mask)
        alpha, best_move = -_INF, ordered[0][1]
        for index, (_, move, cells) in enumerate(ordered):
            args = (opp, mask | move, moves + 1, depth - 1)
            child = (theirs & ~move, cells)
            if index == 0:
                value = -self.search(*args, -_INF, _INF, *child)
            else:
                value = -self.search(*args, -alpha - 1, -alpha, *child)
                if value > alpha:
                    value = -self.search(*args, -_INF, -alpha, *child)
            if value > alpha:
                alpha, best_move = value, move
                self.iteration_best = (alpha, move)
        return alpha, best_move


def _split(board: Board) -> tuple[int, int, int]:
    """Returns (pieces of the side to move, all pieces, number of pieces)."""
    return board.bits[board.turn], board.mask, board.ply


def solve(board: Board) -> int:
    """Returns the exact score: >0 the side to move wins, 0 draw, <0 it loses (bigger is faster).

    The magnitude follows Pascal Pons' convention: a win with one's k-th piece from now on
    scores ``22 - (pieces the winner has played)``; a loss is the negation.
    """
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else -((_CELLS + 2 - board.ply) // 2)
    pos, mask, moves = _split(board)
    return _Solver().solve(pos, mask, moves)


def evaluate(board: Board) -> int:
    """Returns the heuristic value of a position for the side to move (positive is better)."""
    pos, mask, moves = _split(board)
    return _evaluate(pos, mask, moves, winning_cells(pos, mask), winning_cells(pos ^ mask, mask))


def _tactical_move(pos: int, mask: int) -> int:
    """Returns the bit of a win in one, else of a forced block, else of the only sane move."""
    possible = (mask + BOTTOM_MASK) & BOARD_MASK
    wins = winning_cells(pos, mask) & possible
    if wins:
        return wins & -wins
    candidates, theirs = _non_losing(pos, mask)
    forced = possible & theirs
    if forced:
        return forced & -forced
    if not candidates:
        return possible & -possible
    return candidates if not candidates & (candidates - 1) else 0


def _exact_move(pos: int, mask: int, moves: int, candidates: int, deadline: float) -> int:
    """Returns the bit of an optimal move, picking among equally good ones by heuristic search."""
    solver = _Solver()
    opp = pos ^ mask
    scored = [
        (-solver.solve(opp, mask | move, moves + 1), move)
        for _, move, _ in _ordered(pos, mask, candidates)
    ]
    top = max(score for score, _ in scored)
    best = [move for score, move in scored if score == top]
    if top > 0 or len(best) == 1:
        return best[0]
    # Every drawing (or slowest losing) move is as good as the next against perfect play;
    # the heuristic picks the one that leaves a fallible opponent the most ways to go wrong.
    _, move = _Engine(deadline).root(pos, mask, moves, _CELLS - moves, sum(best))
    return move


def _classify(
    solver: _Solver,
    pos: int,
    mask: int,
    moves: int,
    ordered: list[tuple[int, int, int]],
    verdicts: dict[int, int],
) -> None:
    """Fills ``verdicts`` with move bit -> 1 (wins), 0 (draws) or -1 (loses), first win first.

    Stops at the first winning move; raises _Timeout when the solver's deadline passes, with
    the verdicts found so far left in place.
    """
    opp = pos ^ mask
    for _, move, cells in ordered:
        # Null windows: the child scoring <= -1 means the move wins, <= 0 that it draws.
        if solver.negamax(opp, mask | move, moves + 1, -1, 0, cells) <= -1:
            verdicts[move] = 1
            return
    for _, move, cells in ordered:
        draws = solver.negamax(opp, mask | move, moves + 1, 0, 1, cells) <= 0
        verdicts[move] = 0 if draws else -1


def best_move(board: Board, time_budget: float = DEFAULT_BUDGET) -> Move:
    """Returns the strongest level's move: exact when few cells are empty, else timed search."""
    if not board.legal_moves():
        raise IllegalMoveError(NO_MOVES.format(board=board))
    started = time.perf_counter()
    deadline = started + time_budget
    pos, mask, moves = _split(board)
    move = _tactical_move(pos, mask)
    if move:
        return _column(move)
    candidates, _ = _non_losing(pos, mask)
    empty = _CELLS - moves
    if empty <= EXACT_EMPTY_CELLS:
        return _column(_exact_move(pos, mask, moves, candidates, deadline))
    if empty <= SOLVE_EMPTY_CELLS:
        verdicts: dict[int, int] = {}
        solver = _Solver(started + time_budget * SOLVE_SHARE)
        with contextlib.suppress(_Timeout):
            _classify(solver, pos, mask, moves, _ordered(pos, mask, candidates), verdicts)
        wins = [m for m, v in verdicts.items() if v == 1]
        if wins:
            return _column(wins[0])
        draws = sum(m for m, v in verdicts.items() if v == 0)
        losses = sum(m for m, v in verdicts.items() if v == -1)
        if draws and len(verdicts) == candidates.bit_count():
            candidates = draws
        elif candidates & ~losses:
            candidates &= ~losses
    _, move = _Engine(deadline).root(pos, mask, moves, empty, candidates)
    return _column(move)


def _fixed_depth_move(board: Board, depth: int, rng: random.Random) -> Move:
    """Returns a random one of the moves best at a fixed depth, each searched in full."""
    pos, mask, moves = _split(board)
    candidates, _ = _non_losing(pos, mask)
    engine = _Engine()
    opp = pos ^ mask
    theirs = winning_cells(opp, mask)
    values = {
        move: -engine.search(
            opp, mask | move, moves + 1, depth - 1, -_INF, _INF, theirs & ~move, cells
        )
        for _, move, cells in _ordered(pos, mask, candidates)
    }
    top = max(values.values())
    return _column(rng.choice([m for m, v in values.items() if v == top]))


def choose_move(
    board: Board, level: int, rng: random.Random, time_budget: float = DEFAULT_BUDGET
) -> Move:
    """Returns a move at a level: 1 random-ish, 2..4 fixed depth 2/4/6, 5 the full engine."""
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(BAD_LEVEL.format(level=level, lo=MIN_LEVEL, hi=MAX_LEVEL))
    legal = board.legal_moves()
    if not legal:
        raise IllegalMoveError(NO_MOVES.format(board=board))
    if level == MAX_LEVEL:
        return best_move(board, time_budget)
    pos, mask, _ = _split(board)
    possible = (mask + BOTTOM_MASK) & BOARD_MASK
    wins = winning_cells(pos, mask) & possible
    if wins:
        return _column(wins & -wins)
    if level == 1:
        return rng.choice(legal)
    move = _tactical_move(pos, mask)
    if move:
        return _column(move)
    return _fixed_depth_move(board, LEVEL_DEPTHS[level], rng)


def judge(board: Board, player: int) -> int:
    """Returns the engine's heuristic value of the position for player (above 0: better for
    it): the bot takes a draw unless it sees itself ahead."""
    outcome = board.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == player else -1)
    value = evaluate(board)
    return value if board.turn == player else -value
