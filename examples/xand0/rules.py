"""Rules of X and 0 (3x3 tic-tac-toe): the board, moves, outcome and a text rendering."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..board import rules as shared
from ..board.rules import FIRST, SECOND, IllegalMoveError, Player

__all__ = [
    "LINES",
    "SIZE",
    "Board",
    "Move",
    "format_move",
    "parse_move",
    "render",
]

SIZE = 3
"""The number of columns and of rows."""

_ANSI_COLORS = ("\x1b[1;31m", "\x1b[1;34m")
_ANSI_RESET = "\x1b[0m"

BAD_MOVE_TEXT = "move {text!r} is not two digits 'ij' (column i, row j, each 0..{max})"
OCCUPIED_CELL = "cell {move!r} is already occupied"
OFF_BOARD = "move {move!r} is off the board"
GAME_OVER = "move {move!r} played after the game is over"
BAD_BOARD_TEXT = "board text {text!r} is not three rows of 'X', 'O' or '.' joined by '/'"
BAD_MARK_COUNT = "board text {text!r} has impossible mark counts"


class Move(NamedTuple):
    """A cell of the board, addressed by column and row (each 0..2)."""

    col: int
    row: int


def _bit(move: Move) -> int:
    return 1 << (move.row * SIZE + move.col)


LINES: tuple[tuple[Move, ...], ...] = (
    *(tuple(Move(c, r) for c in range(SIZE)) for r in range(SIZE)),
    *(tuple(Move(c, r) for r in range(SIZE)) for c in range(SIZE)),
    tuple(Move(i, i) for i in range(SIZE)),
    tuple(Move(SIZE - 1 - i, i) for i in range(SIZE)),
)
"""The eight lines of three cells: rows, columns, then the two diagonals."""

_LINE_MASKS = tuple(sum(_bit(m) for m in line) for line in LINES)
_FULL = (1 << (SIZE * SIZE)) - 1
_DIGITS = "".join(str(i) for i in range(SIZE))
_ALL_MOVES = tuple(Move(c, r) for r in range(SIZE) for c in range(SIZE))


def parse_move(text: str) -> Move:
    """Returns the move written as two digits 'ij' (column i, row j); raises IllegalMoveError."""
    if len(text) != 2 or not all(ch in _DIGITS for ch in text):
        raise IllegalMoveError(BAD_MOVE_TEXT.format(text=text, max=SIZE - 1))
    return Move(int(text[0]), int(text[1]))


def format_move(move: Move) -> str:
    """Returns the two-digit string 'ij' (column i, row j) of a move."""
    return f"{move.col}{move.row}"


@dataclass(frozen=True, slots=True, repr=False)  # shared.TextBoard writes the repr
class Board(shared.TextBoard):
    """An immutable position: the cells held by each player, as bitmasks indexed by player."""

    marks: tuple[int, int] = (0, 0)

    parse_move = staticmethod(parse_move)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Returns the position written as rows (row 0 first) of 'X', 'O', '.' joined by '/'."""
        found = shared.read_grid(text, SIZE, SIZE, BAD_BOARD_TEXT.format(text=text))
        marks = [0, 0]
        for r, c, player in found:
            marks[player] |= _bit(Move(c, r))
        first, second = marks[FIRST].bit_count(), marks[SECOND].bit_count()
        if first - second not in (0, 1):
            raise ValueError(BAD_MARK_COUNT.format(text=text))
        return cls((marks[FIRST], marks[SECOND]))

    def to_text(self) -> str:
        """Returns the position as rows (row 0 first) of 'X', 'O', '.' joined by '/'."""
        return shared.write_grid(range(SIZE), SIZE, lambda c, r: self.piece_at(Move(c, r)))

    @property
    def turn(self) -> Player:
        """Returns the player to move."""
        return FIRST if self.marks[0].bit_count() == self.marks[1].bit_count() else SECOND

    @property
    def ply(self) -> int:
        """Returns the number of moves played so far."""
        return (self.marks[0] | self.marks[1]).bit_count()

    def piece_at(self, move: Move) -> Player | None:
        """Returns the player holding a cell, or None if it is empty."""
        return shared.owner(self.marks, _bit(move))

    def legal_moves(self) -> list[Move]:
        """Returns the moves legal for the side to move (none once the game is over)."""
        if self.is_game_over():
            return []
        occupied = self.marks[0] | self.marks[1]
        return [m for m in _ALL_MOVES if not occupied & _bit(m)]

    def push(self, move: Move) -> Board:
        """Returns the position after the side to move plays a move; raises IllegalMoveError."""
        if not (0 <= move.col < SIZE and 0 <= move.row < SIZE):
            raise IllegalMoveError(OFF_BOARD.format(move=format_move(move)))
        if self.is_game_over():
            raise IllegalMoveError(GAME_OVER.format(move=format_move(move)))
        bit = _bit(move)
        if (self.marks[0] | self.marks[1]) & bit:
            raise IllegalMoveError(OCCUPIED_CELL.format(move=format_move(move)))
        return Board(shared.with_bit(self.marks, self.turn, bit))

    def outcome(self) -> shared.Outcome | None:
        """Returns how the game ended, or None while it is still in progress."""
        for player in (FIRST, SECOND):
            for line, mask in zip(LINES, _LINE_MASKS, strict=True):
                if self.marks[player] & mask == mask:
                    return shared.Outcome(player, shared.Termination.WIN, line)
        if self.marks[0] | self.marks[1] == _FULL:
            return shared.Outcome(None, shared.Termination.DRAW)
        return None

    def __str__(self) -> str:
        return render(self)


def render(board: Board, last: Move | None = None, color: bool = False) -> str:
    """Returns a text drawing with column and row numbers, the last move in brackets."""
    lines = [("   " + "".join(f" {c} " for c in range(SIZE))).rstrip()]
    for r in range(SIZE):
        row = f" {r} "
        for c in range(SIZE):
            player = board.piece_at(Move(c, r))
            mark = shared.EMPTY_MARK if player is None else shared.MARKS[player]
            if color and player is not None:
                mark = f"{_ANSI_COLORS[player]}{mark}{_ANSI_RESET}"
            row += f"[{mark}]" if last == Move(c, r) else f" {mark} "
        lines.append(row.rstrip())
    return "\n".join(lines)
