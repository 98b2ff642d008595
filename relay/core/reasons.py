"""Why a match ended: the `ended` event's reasons, written once for the relay (the stores,
the rating rules, the referee's verdicts, OpenAPI). The Lua scripts write them as text, and
both SDKs list them again for their players: tests/relay/core/test_reasons.py holds every
list to this one."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ENDED_REASONS", "Reason"]


class Reason(StrEnum):
    """An `ended` event's reason (a str: the wire word itself)."""

    AGREED = "agreed"
    """A move ended the game and the partner's game agreed."""
    DISPUTED = "disputed"
    """A game disputed the partner's move or pass; with a referee, the referee found the
    disputed play legal and the disputer lost."""
    UNCONFIRMED = "unconfirmed"
    """A move ended the game and the partner neither agreed nor disputed in time."""
    RESIGNED = "resigned"
    """A seat resigned."""
    ABANDONED = "abandoned"
    """A seat stopped polling for the grace period."""
    TIMEOUT = "timeout"
    """The seat to move ran out of time on its clock."""
    DRAWN = "drawn"
    """A seat offered a draw and the other accepted it."""
    STALLED = "stalled"
    """The seat to move stalled (a match without a clock) and the other claimed the win."""
    OVER = "over"
    """The game's referee found the game over (won, lost or drawn)."""
    ILLEGAL = "illegal"
    """The game's referee found a move illegal: its mover lost."""

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


ENDED_REASONS: tuple[str, ...] = tuple(reason.value for reason in Reason)
"""Every reason, as the wire writes it, in the order above."""
