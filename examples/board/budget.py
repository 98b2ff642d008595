"""How long a bot may think on a clock: a share of its time left, so that it never loses on time."""

from __future__ import annotations

from sdk import Clock

__all__ = ["SHARE", "think_budget"]

SHARE = 20
"""A bot thinks at most its time left / SHARE, plus half its increment, a move."""


def think_budget(clock: Clock | None, seat: int, limit: float) -> float:
    """Returns the seconds a bot in seat may think now: its own limit without a clock, else at
    most time left / SHARE + increment / 2 (a deadline control has no increment), and never
    more than half its time left."""
    if clock is None:
        return limit
    left = clock.left()[seat]
    increment = clock.control.increment if clock.control.kind == "fischer" else 0
    return max(0.0, min(limit, left / SHARE + increment / 2, left / 2))
