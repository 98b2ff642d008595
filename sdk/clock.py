"""Time controls and the seats' clocks, as the relay keeps them and a game reads them.

The relay keeps each seat's time by whose turn it is and puts the mover's time left in each
move and pass (docs/protocol.md#time-controls). A host keeps the latest reading and runs the
clock of the seat to move down from the moment it learned of the turn, with no request of
its own: `Clock.left()` is both seats' seconds left now.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["BAD_CLOCK", "Clock", "TimeControl", "format_left"]

BAD_CLOCK = (
    "a clock is 'M+S' (Fischer: M minutes each, S seconds more a move, e.g. 5+3), 'M' "
    "(minutes each, no increment), or 'Nd' / 'Nh' (correspondence: N days or hours a move, "
    "e.g. 3d); not {text!r}"
)
"""What TimeControl.parse says of text that is not a clock."""

_FISCHER = re.compile(r"(\d+(?:\.\d+)?)(?:\+(\d+))?")
_DEADLINE = re.compile(r"(\d+)([dh])")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A match's time control: Fischer (base time plus an increment a move) or a deadline a
    move (correspondence). Seconds throughout."""

    kind: Literal["fischer", "deadline"]
    base: int
    """A Fischer seat's starting time, or a deadline control's time for every move."""
    increment: int = 0
    """Seconds a Fischer seat gains after each of its moves or passes."""

    @classmethod
    def fischer(cls, base: int, increment: int = 0) -> TimeControl:
        """Returns a Fischer control: base seconds each, increment seconds more a move."""
        return cls("fischer", base, increment)

    @classmethod
    def deadline(cls, per_move: int) -> TimeControl:
        """Returns a correspondence control: per_move seconds for every move."""
        return cls("deadline", per_move)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Returns the control a player writes: '5+3', '10', '3d', '12h'; raises ValueError
        (BAD_CLOCK) for anything else."""
        text = text.strip().lower()
        if found := _DEADLINE.fullmatch(text):
            count, unit = int(found[1]), found[2]
            return cls.deadline(count * (86400 if unit == "d" else 3600))
        if found := _FISCHER.fullmatch(text):
            return cls.fischer(round(float(found[1]) * 60), int(found[2] or 0))
        raise ValueError(BAD_CLOCK.format(text=text))

    @classmethod
    def from_json(cls, raw: Any) -> TimeControl | None:
        """Returns the control of a `time_control` field (None for null); raises ValueError
        for what the protocol does not define."""
        if raw is None:
            return None
        if isinstance(raw, dict):
            if raw.get("kind") == "fischer":
                return cls.fischer(int(raw["base"]), int(raw["increment"]))
            if raw.get("kind") == "deadline":
                return cls.deadline(int(raw["per_move"]))
        raise ValueError(f"not a time control: {raw!r}")

    def to_json(self) -> dict[str, Any]:
        """Returns the control as a seek's `time_control` field."""
        if self.kind == "fischer":
            return {"kind": "fischer", "base": self.base, "increment": self.increment}
        return {"kind": "deadline", "per_move": self.base}

    def __str__(self) -> str:
        if self.kind == "deadline":
            return f"{format_left(self.base, self)} a move"
        minutes = f"{self.base / 60:g}"
        return f"{minutes} min + {self.increment} s" if self.increment else f"{minutes} min"


@dataclass(frozen=True, slots=True)
class Clock:
    """The seats' clocks as last read: seconds left at `at` (time.monotonic()), the seat to
    move's running from then on."""

    control: TimeControl
    read: tuple[float, float]
    """Each seat's seconds left at `at`, [seat 0, seat 1]."""
    turn: int | None
    """The seat whose clock runs (None: none runs, the match is not in play)."""
    at: float

    def left(self, now: float | None = None) -> tuple[float, float]:
        """Returns each seat's seconds left now (or at `now`, a time.monotonic() value)."""
        left = list(self.read)
        if self.turn is not None:
            spent = (time.monotonic() if now is None else now) - self.at
            left[self.turn] = max(0.0, left[self.turn] - spent)
        return left[0], left[1]


def format_left(seconds: float, control: TimeControl) -> str:
    """Returns time left as a player reads it: '4:53' (or '1:02:03') for Fischer, '2 days 4
    hours' / '5 hours 12 minutes' / '12 minutes' for a correspondence deadline."""
    whole = max(0, int(seconds))
    if control.kind == "fischer":
        hours, rest = divmod(whole, 3600)
        minutes, secs = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return _units(days, "day", hours, "hour")
    if hours:
        return _units(hours, "hour", minutes, "minute")
    return _units(minutes, "minute", 0, "") if minutes else _units(whole, "second", 0, "")


def _units(big: int, big_name: str, small: int, small_name: str) -> str:
    text = f"{big} {big_name}{'s' if big != 1 else ''}"
    if small:
        text += f" {small} {small_name}{'s' if small != 1 else ''}"
    return text
