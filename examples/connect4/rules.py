"""Rules of Connect Four on a 7x6 bitboard: the board, moves, outcome and a text rendering."""

from __future__ import annotations

from dataclasses import dataclass

from ..board import rules as shared
from ..board.rules import FIRST, SECOND, IllegalMoveError, Player

__all__ = [
    "BOARD_MASK",
    "BOTTOM_MASK",
    "COLUMN_MASKS",
    "HEIGHT",
    "STRIDE",
    "WIDTH",
    "WIN_LINES",
    "WIN_MASKS",
    "Board",
    "Cell",
    "Move",
    "cell_bit",
    "format_move",
    "has_four",
    "parse_move",
    "playable_cells",
    "render",
    "winning_cells",
]

Move = int
"""A move: the column (0..6) a piece is dropped into."""

Cell = tuple[int, int]
"""A cell of the board as (column, row); row 0 is the bottom."""

WIDTH = 7
"""The number of columns."""

HEIGHT = 6
"""The number of rows."""

STRIDE = HEIGHT + 1
"""Bits per column in a bitboard: the rows plus an always-empty sentinel bit on top."""

assert (WIDTH, STRIDE) == (7, 7), "winning_cells() hard-codes the shifts of a 7x(6+1) layout"

_ANSI_COLORS = ("\x1b[1;31m", "\x1b[1;33m")
_ANSI_RESET = "\x1b[0m"

BAD_MOVE_TEXT = "move {text!r} is not one column digit 0..{max}"
FULL_COLUMN = "column {move!r} is full"
OFF_BOARD = "move {move!r} is not a column 0..{max}"
GAME_OVER = "move {move!r} played after the game is over"
BAD_BOARD_TEXT = "board text {text!r} is not {rows} rows of {cols} 'X', 'O' or '.' joined by '/'"
BAD_POSITION = "board text {text!r} is not a reachable position ({why})"


def cell_bit(col: int, row: int) -> int:
    """Returns the bitboard bit of a cell: bit ``col * STRIDE + row``."""
    return 1 << (col * STRIDE + row)


BOTTOM_MASK = sum(cell_bit(c, 0) for c in range(WIDTH))
"""The bitboard of the bottom cell of every column."""

BOARD_MASK = BOTTOM_MASK * ((1 << HEIGHT) - 1)
"""The bitboard of every playable cell (sentinel bits excluded)."""

COLUMN_MASKS = tuple(((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH))
"""The bitboard of each column's cells, indexed by column."""


def _lines() -> tuple[tuple[Cell, ...], ...]:
    lines: list[tuple[Cell, ...]] = []
    for r in range(HEIGHT):
        for c in range(WIDTH - 3):
            lines.append(tuple((c + k, r) for k in range(4)))
    for c in range(WIDTH):
        for r in range(HEIGHT - 3):
            lines.append(tuple((c, r + k) for k in range(4)))
    for r in range(HEIGHT - 3):
        for c in range(WIDTH - 3):
            lines.append(tuple((c + k, r + k) for k in range(4)))
    for r in range(HEIGHT - 3):
        for c in range(WIDTH - 1, 2, -1):
            lines.append(tuple((c - k, r + k) for k in range(4)))
    return tuple(lines)


WIN_LINES = _lines()
"""The 69 lines of four cells: 24 horizontal, 21 vertical, then 24 diagonal."""

WIN_MASKS = tuple(sum(cell_bit(c, r) for c, r in line) for line in WIN_LINES)
"""The bitboard of each line in ``WIN_LINES``."""


def has_four(bits: int) -> bool:
    """Returns whether a player's bitboard holds four in a row in any direction."""
    for step in (1, STRIDE, STRIDE - 1, STRIDE + 1):
        pairs = bits & (bits >> step)
        if pairs & (pairs >> (2 * step)):
            return True
    return False


def playable_cells(mask: int) -> int:
    """Returns the bitboard of the cell each non-full column would receive next."""
    return (mask + BOTTOM_MASK) & BOARD_MASK


def winning_cells(bits: int, mask: int) -> int:
    """Returns the empty cells (playable now or not) that would complete a four for ``bits``."""
    # Unrolled for speed: the search engines call this more than anything else. Per direction,
    # the gap is at an end of the four or one in from an end, on either side; vertically
    # only the cell on top of three can complete a line.
    b = bits
    l7, r7, l6, r6, l8, r8 = b << 7, b >> 7, b << 6, b >> 6, b << 8, b >> 8
    h1, h2 = l7 & (b << 14), r7 & (b >> 14)
    d1, d2 = l6 & (b << 12), r6 & (b >> 12)
    e1, e2 = l8 & (b << 16), r8 & (b >> 16)
    cells = (
        (b << 1) & (b << 2) & (b << 3)
        | h1 & ((b << 21) | r7)
        | h2 & (l7 | (b >> 21))
        | d1 & ((b << 18) | r6)
        | d2 & (l6 | (b >> 18))
        | e1 & ((b << 24) | r8)
        | e2 & (l8 | (b >> 24))
    )
    return cells & (BOARD_MASK ^ mask)


def parse_move(text: str) -> Move:
    """Returns the column written as one digit '0'..'6'; raises IllegalMoveError."""
    if len(text) != 1 or text not in _DIGITS:
        raise IllegalMoveError(BAD_MOVE_TEXT.format(text=text, max=WIDTH - 1))
    return int(text)


def format_move(move: Move) -> str:
    """Returns the one-digit string of a move's column."""
    return str(move)


_DIGITS = "".join(str(c) for c in range(WIDTH))


@dataclass(frozen=True, slots=True, repr=False)  # shared.TextBoard writes the repr
class Board(shared.TextBoard):
    """An immutable position: each player's pieces as a bitboard, indexed by player."""

    bits: tuple[int, int] = (0, 0)

    parse_move = staticmethod(parse_move)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Returns the position written as rows (top row first) of 'X', 'O', '.' joined by '/'."""
        found = shared.read_grid(
            text, HEIGHT, WIDTH, BAD_BOARD_TEXT.format(text=text, rows=HEIGHT, cols=WIDTH)
        )
        bits = [0, 0]
        for i, c, player in found:
            bits[player] |= cell_bit(c, HEIGHT - 1 - i)
        mask = bits[0] | bits[1]
        if (mask + BOTTOM_MASK) & mask:
            raise ValueError(BAD_POSITION.format(text=text, why="a piece floats over a gap"))
        if bits[FIRST].bit_count() - bits[SECOND].bit_count() not in (0, 1):
            raise ValueError(BAD_POSITION.format(text=text, why="impossible piece counts"))
        if has_four(bits[0]) and has_four(bits[1]):
            raise ValueError(BAD_POSITION.format(text=text, why="both players have four"))
        return cls((bits[FIRST], bits[SECOND]))

    def to_text(self) -> str:
        """Returns the position as rows (top row first) of 'X', 'O', '.' joined by '/'."""
        return shared.write_grid(reversed(range(HEIGHT)), WIDTH, self.piece_at)

    @property
    def mask(self) -> int:
        """Returns the bitboard of all occupied cells."""
        return self.bits[0] | self.bits[1]

    @property
    def ply(self) -> int:
        """Returns the number of moves played so far."""
        return self.mask.bit_count()

    @property
    def turn(self) -> Player:
        """Returns the player to move."""
        return self.ply & 1

    def height(self, col: int) -> int:
        """Returns the number of pieces in a column."""
        return (self.mask & COLUMN_MASKS[col]).bit_count()

    def piece_at(self, col: int, row: int) -> Player | None:
        """Returns the player holding a cell, or None if it is empty."""
        return shared.owner(self.bits, cell_bit(col, row))

    def legal_moves(self) -> list[Move]:
        """Returns the columns the side to move may play (none once the game is over)."""
        if self.is_game_over():
            return []
        mask = self.mask
        return [c for c in range(WIDTH) if not mask & cell_bit(c, HEIGHT - 1)]

    def push(self, move: Move) -> Board:
        """Returns the position after the side to move plays a column; raises IllegalMoveError."""
        if not 0 <= move < WIDTH:
            raise IllegalMoveError(OFF_BOARD.format(move=move, max=WIDTH - 1))
        if self.is_game_over():
            raise IllegalMoveError(GAME_OVER.format(move=move))
        mask = self.mask
        if mask & cell_bit(move, HEIGHT - 1):
            raise IllegalMoveError(FULL_COLUMN.format(move=move))
        bit = (mask + cell_bit(move, 0)) & COLUMN_MASKS[move] & ~mask
        return Board(shared.with_bit(self.bits, self.turn, bit))

    def outcome(self) -> shared.Outcome | None:
        """Returns how the game ended, or None while it is still in progress."""
        for player in (FIRST, SECOND):
            bits = self.bits[player]
            if has_four(bits):
                for line, line_mask in zip(WIN_LINES, WIN_MASKS, strict=True):
                    if bits & line_mask == line_mask:
                        return shared.Outcome(player, shared.Termination.WIN, line)
        if self.mask == BOARD_MASK:
            return shared.Outcome(None, shared.Termination.DRAW)
        return None

    def __str__(self) -> str:
        return render(self)


def render(board: Board, last: Move | None = None, color: bool = False) -> str:
    """Returns a text drawing with column numbers below, the last move's piece in brackets."""
    last_row = board.height(last) - 1 if last is not None else -1
    lines = []
    for r in reversed(range(HEIGHT)):
        row = ""
        for c in range(WIDTH):
            player = board.piece_at(c, r)
            mark = shared.EMPTY_MARK if player is None else shared.MARKS[player]
            if color and player is not None:
                mark = f"{_ANSI_COLORS[player]}{mark}{_ANSI_RESET}"
            row += f"[{mark}]" if c == last and r == last_row else f" {mark} "
        lines.append(row.rstrip())
    lines.append("".join(f" {c} " for c in range(WIDTH)).rstrip())
    return "\n".join(lines)
