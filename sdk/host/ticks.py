"""How a host moves the seats' clocks on: by the log's events, and by its own moves."""

from __future__ import annotations

from sdk.clock import Clock
from sdk.events import Ended, Event, Moved, Started, Undone

__all__ = ["tick", "tick_own"]


def tick(clock: Clock | None, event: Event, now: float) -> Clock | None:
    """Returns the clocks moved on by an event: the mover's time as the relay gave it, the turn
    (and with a deadline control, a full turn's time) to the other seat; none runs once a
    game-ending move waits for its confirm or the match is over."""
    if clock is None or isinstance(event, Started):
        return clock
    left = list(clock.left(now))
    if isinstance(event, Ended):
        return Clock(clock.control, (left[0], left[1]), None, now)
    if isinstance(event, Undone):
        both = event.left if event.left is not None else (left[0], left[1])
        return Clock(clock.control, both, event.seat, now)
    if event.left is None:
        return clock  # this side's own move, counted when it was sent (tick_own)
    left[event.seat] = event.left
    other = 1 - event.seat
    if clock.control.kind == "deadline":
        left[other] = float(clock.control.base)
    ending = isinstance(event, Moved) and event.end
    return Clock(clock.control, (left[0], left[1]), None if ending else other, now)


def tick_own(clock: Clock | None, seat: int, end: bool, now: float) -> Clock | None:
    """Returns the clocks as this side sends its move or pass (the relay charges it on
    arrival): Fischer adds the increment; the partner's clock starts (afresh with a
    deadline control); none runs after a game-ending move."""
    if clock is None:
        return None
    left = list(clock.left(now))
    if clock.control.kind == "fischer":
        left[seat] += clock.control.increment
    else:
        left[1 - seat] = float(clock.control.base)
    return Clock(clock.control, (left[0], left[1]), None if end else 1 - seat, now)
