"""Resuming a match: which part of the log a game restores from, and whose turn follows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sdk.events import Ended, Event, Moved, Passed, Undone
from sdk.game import Played

__all__ = ["history", "move_number", "split_log", "turn_after"]


def split_log(events: Sequence[Event], seat: int) -> tuple[list[Event], list[Event]]:
    """Returns (the events a resumed game restores from, the events the host still handles).

    `events` is the log after `started`. The host still handles the final `ended` event, and a
    last partner move or pass this side never answered (with a move, pass or confirm): the game
    gets that one through `receive_move()` or `receive_pass()` as if it had just arrived.
    """
    if events and isinstance(events[-1], Ended):
        return list(events[:-1]), [events[-1]]
    if events and isinstance(events[-1], Moved | Passed) and events[-1].seat != seat:
        return list(events[:-1]), [events[-1]]
    return list(events), []


def history(events: Sequence[Event], seat: int) -> list[Played]:
    """Returns the moves and passes of `events` as this side sees them, without those an
    accepted takeback (an `undo` event) took back."""
    played: list[Played] = []
    for event in events:
        if isinstance(event, Moved):
            played.append(Played(event.seat == seat, event.move, event.end))
        elif isinstance(event, Passed):
            played.append(Played(event.seat == seat, None))
        elif isinstance(event, Undone):
            del played[len(played) - event.count :]
    return played


def turn_after(first: int, events: Sequence[Event]) -> tuple[int, bool]:
    """Returns the seat to move after `events`, and whether a game-ending move awaits a confirm."""
    turn, ending = first, False
    for event in events:
        if isinstance(event, Moved | Passed):
            turn = 1 - event.seat
            ending = isinstance(event, Moved) and event.end
        elif isinstance(event, Undone):
            turn, ending = event.seat, False
    return turn, ending


def move_number(events: Mapping[int, Event], at: int | None) -> int | None:
    """Returns the number in the match (the first 1) of the move or pass at event `at`, by the
    moves and passes in play up to it, or None when `at` is no move or pass handled."""
    if at is None or not isinstance(events.get(at), Moved | Passed):
        return None
    before = [events[seq] for seq in sorted(events) if seq <= at]
    return len(history(before, 0))
