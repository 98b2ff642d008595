"""Turn notices: what a store tells when a match with a time control gives a seat the turn,
and the hint of a write that may have ended a match.

A store calls its sink (set by the relay when a webhook or Web Push is configured) after the
write that gave the turn is stored: the `started` event of a match with a per-move deadline,
and each move, pass or takeback in a match with any time control. It tells only seats whose
seeker gave a contact handle (correspondence matches only: the webhook's) or a player key (Web
Push's). The sink must not block or raise: it queues the notice and returns. So must an end
sink, told the id of a match a seat's write may have ended (resign, confirm, accept, claim, a
referee's verdict).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["EndSink", "TurnNotice", "TurnSink"]


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
    """The seat's contact handle as its seek gave it, opaque to the relay ('': none)."""
    due: float
    """When the seat's time for this turn runs out, in seconds since the epoch."""
    player: str = ""
    """The digest of the seat's player key ('': none)."""
    correspondence: bool = True
    """Whether the match has a per-move deadline (else a clock): only these go to the
    webhook."""


class TurnSink(Protocol):
    """Takes turn notices; called on the event loop, must return at once."""

    def __call__(self, notice: TurnNotice) -> None: ...


class EndSink(Protocol):
    """Takes the id of a match a seat's write may have ended; called on the event loop, must
    return at once."""

    def __call__(self, match: str) -> None: ...
