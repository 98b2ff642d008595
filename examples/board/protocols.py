"""What the board kit needs of a game, as typed protocols: its position and its rules' parts.

A game's classes need not inherit from these: mypy checks that they fit (structural typing).
`Position` itself lives in rules.py, beside `Outcome`; it is named here again.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Self, TypeVar

from .rules import Player, Position

__all__ = [
    "Engine",
    "Judge",
    "MoveFormatter",
    "MoveParser",
    "Position",
    "Render",
    "StartingPosition",
    "TimedEngine",
    "Words",
]

M = TypeVar("M")
B_contra = TypeVar("B_contra", contravariant=True)
M_co = TypeVar("M_co", covariant=True)
M_contra = TypeVar("M_contra", contravariant=True)


class StartingPosition(Position[M], Protocol[M]):
    """A position whose class makes the starting position, as the page kit's Board does."""

    @classmethod
    def empty(cls) -> Self:
        """Returns the starting position."""


class MoveParser(Protocol[M_co]):
    """Reads a move string (Rules.parse_move): parse(text) -> move."""

    def __call__(self, text: str, /) -> M_co:
        """Returns the move a move string names; raises IllegalMoveError."""


class MoveFormatter(Protocol[M_contra]):
    """Writes a move string (Rules.format_move): format(move) -> text."""

    def __call__(self, move: M_contra, /) -> str:
        """Returns the move string of a move."""


class Engine(Protocol[B_contra, M_co]):
    """The bot's engine (Rules.choose_move): choose(board, level, rng) -> move."""

    def __call__(self, board: B_contra, level: int, rng: random.Random, /) -> M_co:
        """Returns the move to play in a position at a level."""


class TimedEngine(Protocol[B_contra, M_co]):
    """The engine given a time budget in seconds (Rules.timed_move)."""

    def __call__(self, board: B_contra, level: int, rng: random.Random, budget: float, /) -> M_co:
        """Returns the move to play in a position at a level, within budget seconds."""


class Judge(Protocol[B_contra]):
    """The bot's view of a position for a player (Rules.judge), to answer a draw offer."""

    def __call__(self, board: B_contra, player: Player, /) -> int:
        """Returns above 0 when player is winning, 0 when even, below 0 when losing."""


class Render(Protocol):
    """Draws a board as text for the terminal client (text_game's render=)."""

    def __call__(self, board: Any, last: Any, color: bool, /) -> str:
        """Returns the board as lines of text, last (a move, or None) marked, in colour or not."""


class Words(Protocol):
    """Says how a finished board ended, in the game's words (text_game's words=)."""

    def __call__(self, board: Any, /) -> str:
        """Returns words such as "three in a row"; "" while the game goes on."""
