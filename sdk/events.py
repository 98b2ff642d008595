"""The events of a match's log, as protocol v1 sends them, parsed into typed records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdk.errors import ProtocolError

__all__ = ["ENDED_REASONS", "Ended", "Event", "Moved", "Passed", "Started", "parse_event"]

ENDED_REASONS = frozenset({"agreed", "disputed", "unconfirmed", "resigned", "abandoned"})
"""The reasons an `ended` event may give."""

BAD_EVENT = "the relay sent an event protocol v1 does not define: {event!r}"


@dataclass(frozen=True, slots=True)
class Started:
    """Both seats are taken; seat `first` has the turn. Always event 1."""

    seq: int
    first: int


@dataclass(frozen=True, slots=True)
class Moved:
    """A seat's move, byte-exact; `end` says the sender thinks the game is over."""

    seq: int
    seat: int
    move: str
    end: bool


@dataclass(frozen=True, slots=True)
class Passed:
    """The seat to move passed (no legal move, or by choice); the turn went back to the other."""

    seq: int
    seat: int


@dataclass(frozen=True, slots=True)
class Ended:
    """The match is over (always the last event); `seat` is the seat the reason is about."""

    seq: int
    reason: str
    seat: int


Event = Started | Moved | Passed | Ended
"""One numbered event of a match's log."""


def parse_event(raw: Any) -> Event:
    """Returns the typed event for one JSON object of an events answer."""
    try:
        kind, seq = raw["type"], raw["seq"]
        if type(seq) is not int or seq < 1:
            raise ProtocolError(BAD_EVENT.format(event=raw))
        if kind == "started":
            return Started(seq, _seat(raw["first"], raw))
        if kind == "move":
            move, end = raw["move"], raw["end"]
            if isinstance(move, str) and isinstance(end, bool):
                return Moved(seq, _seat(raw["seat"], raw), move, end)
        elif kind == "pass":
            return Passed(seq, _seat(raw["seat"], raw))
        elif kind == "ended" and raw["reason"] in ENDED_REASONS:
            return Ended(seq, raw["reason"], _seat(raw["seat"], raw))
    except (KeyError, TypeError):
        pass
    raise ProtocolError(BAD_EVENT.format(event=raw))


def _seat(value: Any, raw: Any) -> int:
    if value not in (0, 1) or type(value) is not int:
        raise ProtocolError(BAD_EVENT.format(event=raw))
    return value
