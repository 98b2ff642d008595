"""Rules of Dots and Boxes on 3x3 boxes: the lines, the boxes, who moves, and a text drawing.

The 16 dots are at (row, column), 0 to 3 each. A move draws one line between two neighbouring
dots: `hRC` from dot (R, C) to (R, C+1), `vRC` from (R, C) to (R+1, C). Whoever draws the
fourth side of a box owns it and moves again (the partner passes); the one with more of the
nine boxes when every line is drawn wins, so there is no draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..board import rules as shared
from ..board.rules import FIRST, IllegalMoveError, Player

__all__ = [
    "BOXES",
    "DOTS",
    "LINES",
    "Board",
    "Line",
    "box_sides",
    "format_move",
    "parse_move",
    "render",
]

BOXES = 3
"""Boxes on a side."""
DOTS = BOXES + 1
"""Dots on a side."""

BAD_MOVE_TEXT = "move {text!r} is not a line: h or v, then row and column digits (h01, v12)"
OFF_BOARD = "line {move!r} is off the board"
DRAWN = "line {move!r} is drawn already"
GAME_OVER = "line {move!r} drawn after the game is over"
_ANSI_COLORS = ("\x1b[1;31m", "\x1b[1;34m")
_ANSI_RESET = "\x1b[0m"


class Line(NamedTuple):
    """A line between two neighbouring dots: horizontal from (row, col) to (row, col + 1),
    or vertical from (row, col) to (row + 1, col)."""

    kind: str
    """"h" or "v"."""
    row: int
    col: int


def _on_board(line: Line) -> bool:
    rows, cols = (DOTS, BOXES) if line.kind == "h" else (BOXES, DOTS)
    return 0 <= line.row < rows and 0 <= line.col < cols


LINES = tuple(
    Line(kind, r, c)
    for kind in "hv"
    for r in range(DOTS)
    for c in range(DOTS)
    if _on_board(Line(kind, r, c))
)
"""Every line of the board: 12 horizontal, then 12 vertical."""
_INDEX = {line: i for i, line in enumerate(LINES)}


def box_sides(row: int, col: int) -> tuple[Line, Line, Line, Line]:
    """Returns the four sides of a box: top, bottom, left, right."""
    return (
        Line("h", row, col),
        Line("h", row + 1, col),
        Line("v", row, col),
        Line("v", row, col + 1),
    )


_BOX_MASKS = tuple(
    sum(1 << _INDEX[side] for side in box_sides(r, c)) for r in range(BOXES) for c in range(BOXES)
)
_FULL = (1 << len(LINES)) - 1


def parse_move(text: str) -> Line:
    """Returns the line a move string names, such as "h01"; raises IllegalMoveError."""
    if len(text) != 3 or text[0] not in "hv" or not (text[1:].isascii() and text[1:].isdigit()):
        raise IllegalMoveError(BAD_MOVE_TEXT.format(text=text))
    line = Line(text[0], int(text[1]), int(text[2]))
    if not _on_board(line):
        raise IllegalMoveError(OFF_BOARD.format(move=text))
    return line


def format_move(move: Line) -> str:
    """Returns the move string of a line: "h01" or "v12"."""
    return f"{move.kind}{move.row}{move.col}"


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable position: the lines drawn (a bitmask of LINES), each player's boxes (bit
    r * 3 + c), and the player to move."""

    lines: int = 0
    boxes: tuple[int, int] = (0, 0)
    turn: Player = FIRST
    """The player to move: the one who just closed a box moves again."""

    @classmethod
    def empty(cls) -> Board:
        """Returns the starting position."""
        return cls()

    @classmethod
    def from_moves(cls, moves: Iterable[str | Line]) -> Board:
        """Returns the position reached by drawing the lines (strings or Lines) in order."""
        return shared.replay(cls(), moves, parse_move)

    @property
    def ply(self) -> int:
        """Returns the number of lines drawn so far."""
        return self.lines.bit_count()

    def is_drawn(self, line: Line) -> bool:
        """Returns whether a line is drawn."""
        return bool(self.lines >> _INDEX[line] & 1)

    def box_owner(self, row: int, col: int) -> Player | None:
        """Returns the player who closed a box, or None while it is open."""
        return shared.owner(self.boxes, 1 << (row * BOXES + col))

    def legal_moves(self) -> list[Line]:
        """Returns the lines not yet drawn (none once the game is over)."""
        return [line for i, line in enumerate(LINES) if not self.lines >> i & 1]

    def push(self, move: Line) -> Board:
        """Returns the position after the player to move draws a line; raises IllegalMoveError.

        Closing a box (or two) gives it to the mover, who moves again; else the turn passes.
        """
        if move not in _INDEX:
            raise IllegalMoveError(OFF_BOARD.format(move=format_move(move)))
        if self.lines == _FULL:
            raise IllegalMoveError(GAME_OVER.format(move=format_move(move)))
        bit = 1 << _INDEX[move]
        if self.lines & bit:
            raise IllegalMoveError(DRAWN.format(move=format_move(move)))
        lines = self.lines | bit
        closed = 0
        for b, mask in enumerate(_BOX_MASKS):
            if mask & bit and lines & mask == mask:
                closed |= 1 << b
        boxes = shared.with_bit(self.boxes, self.turn, closed)
        return Board(lines, boxes, self.turn if closed else 1 - self.turn)

    def score(self) -> tuple[int, int]:
        """Returns how many boxes each player owns."""
        return self.boxes[0].bit_count(), self.boxes[1].bit_count()

    def outcome(self) -> shared.Outcome | None:
        """Returns who won once every line is drawn (the one with more boxes), else None."""
        if self.lines != _FULL:
            return None
        first, second = self.score()
        return shared.Outcome(FIRST if first > second else 1 - FIRST, shared.Termination.WIN)

    def is_game_over(self) -> bool:
        """Returns whether every line is drawn."""
        return self.lines == _FULL

    def to_text(self) -> str:
        """Returns the position as the drawn lines (1 or 0, in LINES order), the boxes' owners
        ('X', 'O' or '.', row by row) and the player to move, joined by '/'."""
        drawn = "".join("1" if self.lines >> i & 1 else "0" for i in range(len(LINES)))
        boxes = shared.write_grid(range(BOXES), BOXES, lambda c, r: self.box_owner(r, c))
        return f"{drawn}/{boxes}/{shared.MARKS[self.turn]}"

    def __str__(self) -> str:
        return render(self)


def render(board: Board, last: Line | None = None, color: bool = False) -> str:
    """Returns a text drawing: dots numbered by row and column, lines drawn, boxes' owners;
    the last line drawn is shown with '=' or '#' instead of '-' or '|'."""

    def paint(text: str, player: Player | None) -> str:
        if color and player is not None:
            return f"{_ANSI_COLORS[player]}{text}{_ANSI_RESET}"
        return text

    out = ["   " + "   ".join(str(c) for c in range(DOTS))]
    for r in range(DOTS):
        row = f"{r}  "
        for c in range(BOXES):
            line = Line("h", r, c)
            dash = ("===" if line == last else "---") if board.is_drawn(line) else "   "
            row += "+" + dash
        out.append(row + "+")
        if r == BOXES:
            break
        row = "   "
        for c in range(DOTS):
            line = Line("v", r, c)
            row += ("#" if line == last else "|") if board.is_drawn(line) else " "
            if c < BOXES:
                owner = board.box_owner(r, c)
                row += f" {paint(shared.MARKS[owner], owner)} " if owner is not None else "   "
        out.append(row.rstrip())
    return "\n".join(out)
