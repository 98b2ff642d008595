"""A game's referee: pure Python that reads a match's moves and says whether they are legal so
far, which one broke the rules, or how the game ended. A host turns it on per game
(`--referee GAME`); the relay then judges each game-ending move and each dispute itself, and
records the verdict (docs/protocol.md#verdicts).

This module holds only the contract, with no dependency: the relay reads a referee and its
verdicts by their fields, and never imports the SDK.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["DETAIL_MAX", "Illegal", "Legal", "Over", "Play", "Referee", "Verdict"]

DETAIL_MAX = 200
"""The longest reason a verdict may give, in characters; the relay cuts a longer one."""


@dataclass(frozen=True, slots=True)
class Play:
    """One move or pass of a match, as the referee reads it. Takebacks are already applied:
    the plays a referee is given are the ones that stand, in order."""

    seq: int
    """Its event number in the match's log."""
    seat: int
    """The seat (0 or 1) that played it; the first play's seat moved first."""
    move: str | None
    """The move text, byte-exact as sent, or None for a pass."""
    end: bool = False
    """Whether the mover said the game is over with it."""


@dataclass(frozen=True, slots=True)
class Legal:
    """Every play so far is legal, and the game is not over."""

    kind: Literal["legal"] = "legal"


@dataclass(frozen=True, slots=True)
class Illegal:
    """The play at event `seq`, by `seat`, broke the rules (the first that did)."""

    seq: int
    seat: int
    reason: str
    """Why, in words for both players: "column 3 is full"."""
    kind: Literal["illegal"] = "illegal"


@dataclass(frozen=True, slots=True)
class Over:
    """Every play is legal, and the play at event `seq` ended the game."""

    seq: int
    winner: int | None
    """The winning seat, or None for a draw."""
    reason: str
    """How, in words for both players: "four in a row"."""
    kind: Literal["over"] = "over"


Verdict = Legal | Illegal | Over
"""What a referee says of a match's plays."""


class Referee(Protocol):
    """Judges a match of one game from its plays. `judge` must be pure and quick (the relay
    calls it on its event loop, once per game-ending move or dispute): the same plays always
    get the same verdict, whichever relay process asks."""

    def judge(self, plays: Sequence[Play]) -> Verdict:
        """Returns the verdict on plays: the first illegal one, or where the game ended (the
        plays after that are the first illegal ones), or Legal."""
        ...
