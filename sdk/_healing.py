"""Healing after the relay's log fell behind (a failover lost acknowledged events).

Redis replicates asynchronously: a replica promoted after its primary died may lack the last
events the primary acknowledged, so the log a relay serves can become shorter than what a
client has already handed its game. A host then reads the log from its real end, checks that
what is left is what its game saw, skips the events the partner posts again, and posts its
own lost moves and passes again, each once the log reaches the event it followed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from sdk.errors import ProtocolError
from sdk.events import Claim, Event, Moved, Passed

__all__ = ["DIVERGED", "Write", "check_log", "lost_writes", "same_event"]

DIVERGED = "the relay's log has {event!r} where this side already handled {known!r}"


@dataclass(frozen=True, slots=True)
class Write:
    """A post waiting to be sent: the game's move, or the host's pass or confirm."""

    kind: Literal["move", "pass", "confirm"]
    after: int
    move: str = ""
    end: bool = False
    agree: bool = True
    reason: str = ""
    """For a confirm that disputes: why, sent to the relay."""
    claim: Claim | None = None
    """For a game-ending move: the mover's result as its game tells it (None: cannot tell)."""
    detail: str = ""
    """For a game-ending move: how it ended, in its game's words ("" for none)."""


def same_event(known: Event | None, event: Event) -> bool:
    """Returns whether `event` is the one handled as `known` (None: nothing known there)."""
    return known is None or known == event


def check_log(log: Sequence[Event], delivered: Mapping[int, Event]) -> None:
    """Raises ProtocolError if the log holds, at a number already handled, another event."""
    for event in log:
        known = delivered.get(event.seq)
        if not same_event(known, event):
            raise ProtocolError(DIVERGED.format(event=event, known=known))


def lost_writes(
    delivered: Mapping[int, Event], last: int, seat: int, pending: Write | None
) -> list[Write]:
    """Returns this side's writes the log lost (it ends at event `last`), oldest first.

    They are the moves and passes of `seat` handled above `last`, and `pending` (the write the
    relay just refused) if the log does not reach the event it followed.
    """
    writes = []
    for seq in sorted(delivered):
        event = delivered[seq]
        if seq <= last or not isinstance(event, Moved | Passed) or event.seat != seat:
            continue
        if isinstance(event, Moved):
            writes.append(Write("move", seq - 1, event.move, event.end, claim=event.claim))
        elif isinstance(event, Passed):
            writes.append(Write("pass", seq - 1))
    lost = {write.after for write in writes}
    if pending is not None and pending.after >= last and pending.after not in lost:
        writes.append(pending)
    return sorted(writes, key=lambda write: write.after)
