"""What every example board's rules share: players, the outcome of a game, illegal moves (the
SDK's one IllegalMoveError, which the rules raise and the kits catch)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar, cast

from sdk.errors import IllegalMoveError

__all__ = [
    "EMPTY_MARK",
    "FIRST",
    "MARKS",
    "SECOND",
    "IllegalMoveError",
    "Outcome",
    "Player",
    "Position",
    "Termination",
    "replay",
]

Player = int
"""A player: 0 moves first in a game, 1 moves second."""

FIRST: Player = 0
"""The player who moves first (marks ``X``)."""

SECOND: Player = 1
"""The player who moves second (marks ``O``)."""

MARKS = ("X", "O")
"""The mark of each player, indexed by player."""

EMPTY_MARK = "."
"""The mark of an empty cell in text boards."""

M = TypeVar("M")
P = TypeVar("P")


class Termination(enum.Enum):
    """Why a game ended."""

    WIN = "win"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: the winner (None for a draw), why, and the winning line."""

    winner: Player | None
    reason: Termination
    line: tuple[Any, ...] = ()
    """The cells of the winning line (empty for a draw, or a game won without one)."""


class Position(Protocol[M]):
    """An immutable position of a two-player board game, as the shared Game plays it."""

    @property
    def turn(self) -> Player:
        """Returns the player to move (the rules say who: in Dots and Boxes, a box closed
        keeps the turn)."""

    @property
    def ply(self) -> int:
        """Returns the number of moves played so far."""

    def push(self, move: M) -> Self:
        """Returns the position after the side to move plays a move; raises IllegalMoveError."""

    def legal_moves(self) -> list[M]:
        """Returns the moves legal for the side to move (none once the game is over)."""

    def outcome(self) -> Outcome | None:
        """Returns how the game ended, or None while it is still in progress."""

    def is_game_over(self) -> bool:
        """Returns whether the game has ended."""


def replay(board: P, moves: Iterable[Any], parse: Any) -> P:
    """Returns the position reached from board by the moves (strings, parsed, or moves)."""
    position: Any = board
    for move in moves:
        position = position.push(parse(move) if isinstance(move, str) else move)
    return cast(P, position)


def read_grid(text: str, rows: int, cols: int, wrong: str) -> list[tuple[int, int, Player]]:
    """Returns the marks of a board written as rows of 'X', 'O', '.' joined by '/', as (row
    counted from the first written, column, player); raises ValueError(wrong) for other text."""
    lines = text.split("/")
    if len(lines) != rows or any(len(line) != cols for line in lines):
        raise ValueError(wrong)
    marks = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch in MARKS:
                marks.append((r, c, MARKS.index(ch)))
            elif ch != EMPTY_MARK:
                raise ValueError(wrong)
    return marks


def write_grid(rows: Iterable[int], cols: int, piece_at: Any) -> str:
    """Returns rows of 'X', 'O', '.' joined by '/', piece_at(column, row) naming each cell's."""
    written = []
    for r in rows:
        cells = (piece_at(c, r) for c in range(cols))
        written.append("".join(EMPTY_MARK if p is None else MARKS[p] for p in cells))
    return "/".join(written)


def owner(bits: tuple[int, int], bit: int) -> Player | None:
    """Returns the player whose bitboard (of the two, indexed by player) holds bit, or None."""
    if bits[FIRST] & bit:
        return FIRST
    if bits[SECOND] & bit:
        return SECOND
    return None


def with_bit(bits: tuple[int, int], player: Player, bit: int) -> tuple[int, int]:
    """Returns the two bitboards with bit added to player's."""
    return (bits[0] | bit, bits[1]) if player == FIRST else (bits[0], bits[1] | bit)


class TextBoard:
    """What the example boards share: game over derived from the outcome, a pasteable repr."""

    __slots__ = ()

    @staticmethod
    def parse_move(text: str) -> Any:
        """Returns the move a move string names (each board sets its rules' parse_move)."""
        raise NotImplementedError

    @classmethod
    def empty(cls) -> Self:
        """Returns the starting position."""
        return cls()

    @classmethod
    def from_moves(cls, moves: Iterable[Any]) -> Self:
        """Returns the position reached by playing the moves (strings or moves) in order."""
        return replay(cls(), moves, cls.parse_move)

    def outcome(self) -> Outcome | None:
        """Returns how the game ended, or None while it is still in progress."""
        raise NotImplementedError

    def to_text(self) -> str:
        """Returns the position as rows of 'X', 'O', '.' joined by '/'."""
        raise NotImplementedError

    def is_game_over(self) -> bool:
        """Returns whether the game has ended."""
        return self.outcome() is not None

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"
