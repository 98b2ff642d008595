"""Turn notices: what a store tells when a correspondence match gives a seat the turn.

A store calls its sink (set by the relay when a webhook is configured) after the write that
gave the turn is stored: the `started` event of a match with a per-move deadline, and each
move or pass in it. It tells only seats whose seeker gave a contact handle. The sink must
not block or raise: it queues the notice and returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["TurnNotice", "TurnSink"]


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """A seat was given the turn in a match with a per-move deadline."""

    match: str
    game: str
    seat: int
    """The seat that now has the turn."""
    seq: int
    """The event that gave the turn (`started`, a move or a pass): with match and seat, the
    notice's identity, the same however often the write is retried."""
    contact: str
    """The seat's contact handle as its seek gave it, opaque to the relay."""
    due: float
    """When the seat's time for this turn runs out, in seconds since the epoch."""


class TurnSink(Protocol):
    """Takes turn notices; called on the event loop, must return at once."""

    def __call__(self, notice: TurnNotice) -> None: ...
