"""Time controls: a seat's time kept by whose turn it is, without reading a move."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Clock",
    "TimeControl",
    "left_text",
    "millis",
]

ControlKind = Literal["fischer", "deadline"]
"""The forms of time control: base time plus an increment per move, or a deadline per move."""

BASE = (1, 30 * 86400)
"""Seconds a Fischer control's base time may be."""
INCREMENT = (0, 3600)
"""Seconds a Fischer control's increment may be."""
PER_MOVE = (10, 30 * 86400)
"""Seconds a deadline control gives each move."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A match's time control: Fischer (base and increment) or a deadline per move."""

    kind: ControlKind
    base: int
    """Seconds: a Fischer seat's starting time, or a deadline control's time per move."""
    increment: int = 0
    """Seconds a Fischer seat gains after each of its moves or passes (0 for a deadline)."""

    @property
    def key(self) -> str:
        """Returns the control as pairing text: 'fischer:300:3' or 'deadline:259200'."""
        if self.kind == "fischer":
            return f"fischer:{self.base}:{self.increment}"
        return f"deadline:{self.base}"

    @classmethod
    def from_key(cls, key: str) -> TimeControl | None:
        """Returns the control of a key (None for '', no clock)."""
        if not key:
            return None
        kind, _, rest = key.partition(":")
        if kind == "fischer":
            base, _, increment = rest.partition(":")
            return cls("fischer", int(base), int(increment))
        return cls("deadline", int(rest))

    def json(self) -> bytes:
        """Returns the control as the JSON object text events and answers carry."""
        if self.kind == "fischer":
            return b'{"kind":"fischer","base":%d,"increment":%d}' % (self.base, self.increment)
        return b'{"kind":"deadline","per_move":%d}' % self.base

    def as_dict(self) -> dict[str, object]:
        """Returns the control as a JSON-ready dict."""
        if self.kind == "fischer":
            return {"kind": "fischer", "base": self.base, "increment": self.increment}
        return {"kind": "deadline", "per_move": self.base}


def millis(now: float) -> int:
    """Returns a time in whole milliseconds, as the Redis scripts round it."""
    return math.floor(now * 1000 + 0.5)


def left_text(ms: int) -> bytes:
    """Returns milliseconds as the seconds an event carries: '287.500' (3 decimals)."""
    ms = max(ms, 0)
    return b"%d.%03d" % (ms // 1000, ms % 1000)


@dataclass(frozen=True, slots=True)
class Clock:
    """A match's clocks as stored: the control, each seat's time left when its turn last
    started or ended (ms), and when the current turn started (ms since the epoch)."""

    control: TimeControl
    left: tuple[int, int]
    turn_at: int

    def left_at(self, turn: int | None, now: float) -> tuple[float, float]:
        """Returns each seat's seconds left at now, the seat to move charged since its turn
        started (no seat runs while turn is None)."""
        left = list(self.left)
        if turn is not None:
            left[turn] = max(0, left[turn] - (millis(now) - self.turn_at))
        return left[0] / 1000, left[1] / 1000
