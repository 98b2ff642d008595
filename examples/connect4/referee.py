"""The referee of Connect Four: the relay runs it with `--referee connect4` (sdk.referee).

It replays a match on the rules' bitboards (examples.connect4.rules) in one loop, with no
position object per move, and looks for four in a row only as often as it must: a four, once
made, stays on the board, so the first play that made one is found by halving the plays
(about six looks for a whole game, not one per move). The relay runs it on its event loop once
per match; `python -m bench` measures its cost against a match without a referee."""

from __future__ import annotations

from collections.abc import Sequence

from sdk.referee import Illegal, Legal, Over, Play, Verdict

from ..board.referee import NOT_YOUR_TURN, PASSED_WITH_MOVES
from .rules import (
    BAD_MOVE_TEXT,
    BOARD_MASK,
    COLUMN_MASKS,
    FULL_COLUMN,
    HEIGHT,
    WIDTH,
    cell_bit,
    has_four,
)

__all__ = ["Connect4Referee"]

_COLUMNS = {str(column): column for column in range(WIDTH)}
_TOPS = tuple(cell_bit(column, HEIGHT - 1) for column in range(WIDTH))
_BOTTOMS = tuple(cell_bit(column, 0) for column in range(WIDTH))
FOUR = "four in a row"
DRAW = "a draw: the board is full"


class Connect4Referee:
    """Judges a match of Connect Four: one column digit a move, players taking turns, four in
    a row wins, a full board is a draw; the seat that played first is the first player."""

    def judge(self, plays: Sequence[Play]) -> Verdict:
        """Returns the first illegal play, the play that ended the game, or Legal."""
        if not plays:
            return Legal()
        to_move = plays[0].seat
        bits = [0, 0]
        mask = 0
        after: list[int] = []
        """The mover's pieces after each play taken."""
        wrong: Verdict = Legal()
        for play in plays:
            seat, text = play.seat, play.move
            if seat != to_move:
                wrong = Illegal(play.seq, seat, NOT_YOUR_TURN)
                break
            if text is None:  # a Connect Four player always has a move
                wrong = Illegal(play.seq, seat, PASSED_WITH_MOVES)
                break
            column = _COLUMNS.get(text)
            if column is None:
                wrong = Illegal(play.seq, seat, BAD_MOVE_TEXT.format(text=text, max=WIDTH - 1))
                break
            if mask & _TOPS[column]:
                wrong = Illegal(play.seq, seat, FULL_COLUMN.format(move=column))
                break
            mask |= (mask + _BOTTOMS[column]) & COLUMN_MASKS[column]
            bits[seat] |= mask ^ (bits[0] | bits[1])
            after.append(bits[seat])
            if mask == BOARD_MASK:
                break  # every later play is illegal: the game ended here, in a draw or a win
            to_move = 1 - seat
        won = _first_four(after)
        if won is not None:
            return Over(plays[won].seq, plays[won].seat, FOUR)
        if mask == BOARD_MASK:
            return Over(plays[len(after) - 1].seq, None, DRAW)
        return wrong


def _first_four(after: list[int]) -> int | None:
    """Returns the index of the first play after which its mover has four in a row (a four
    stays: whether either player has one only grows with the plays), or None."""
    if len(after) < 7:
        return None
    # Either player's pieces at play i: the mover's after i, the other's after i - 1.
    found, low, high = None, 6, len(after) - 1
    if not (has_four(after[high]) or has_four(after[high - 1])):
        return None
    while low <= high:
        middle = (low + high) // 2
        if has_four(after[middle]) or has_four(after[middle - 1]):
            found, high = middle, middle - 1
        else:
            low = middle + 1
    return found
