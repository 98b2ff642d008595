"""A seat's pace of table writes (chat lines, offers and their withdrawals), kept with the
match in the store so that its limit holds across processes and workers: the generic cell
rate algorithm (GCRA), one number a seat and kind, the time its next write is due.

The Redis store's scripts compute the same (`throttled` in its match prelude)."""

from __future__ import annotations

__all__ = ["ROUNDING", "admit"]

ROUNDING = 1e-3
"""Seconds of a wait taken for rounding, not for a write too early: the due time is a sum of
steps, compared with the steps of a burst multiplied, and at today's epoch times (about 1.8e9
s, a double's last bit a quarter of a microsecond) the two drift apart by microseconds."""


def admit(due: float, now: float, per_minute: int) -> tuple[float, float]:
    """Returns (the next due time, 0.0) for a write at `now` within `per_minute` writes a
    minute in bursts of as many, whose last due time was `due` (0 for none); else (`due`
    unchanged, the seconds until one more is let through)."""
    step = 60.0 / per_minute
    start = max(due, now)
    wait = start - now - (per_minute - 1) * step
    if wait > ROUNDING:
        return due, wait
    return start + step, 0.0
