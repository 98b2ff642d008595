"""The events of a match's log, as protocol v1 sends them, parsed into typed records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from sdk.clock import TimeControl
from sdk.errors import ProtocolError

__all__ = [
    "CLAIMS",
    "ENDED_REASONS",
    "Claim",
    "Ended",
    "Event",
    "Moved",
    "Passed",
    "Started",
    "Undone",
    "parse_event",
]

ENDED_REASONS = frozenset(
    {
        "agreed", "disputed", "unconfirmed", "resigned", "abandoned", "timeout", "drawn",
        "stalled", "over", "illegal",
    }
)  # fmt: skip
"""The reasons an `ended` event may give."""

Claim = Literal["win", "draw", "loss"]
"""A mover's word on its own result with a game-ending move."""

CLAIMS: tuple[Claim, ...] = ("win", "draw", "loss")
"""The claims a game-ending move may carry."""

BAD_EVENT = "the relay sent an event protocol v1 does not define: {event!r}"


@dataclass(frozen=True, slots=True)
class Started:
    """Both seats are taken; seat `first` has the turn. Always event 1."""

    seq: int
    first: int
    time_control: TimeControl | None = None
    """The match's time control (None: no clock)."""
    left: tuple[float, float] | None = None
    """With a time control, each seat's starting seconds."""


@dataclass(frozen=True, slots=True)
class Moved:
    """A seat's move, byte-exact; `end` says the sender thinks the game is over."""

    seq: int
    seat: int
    move: str
    end: bool
    left: float | None = field(default=None, compare=False)
    """With a time control, the mover's seconds left after it (not part of what the move is:
    a move posted again after a failover is the same move)."""
    claim: Claim | None = field(default=None, compare=False)
    """With `end`, the mover's own result as it claimed it ("win", "draw" or "loss"; None:
    none claimed), by which an agreed end is rated."""


@dataclass(frozen=True, slots=True)
class Passed:
    """The seat to move passed (no legal move, or by choice); the turn went back to the other."""

    seq: int
    seat: int
    left: float | None = field(default=None, compare=False)
    """With a time control, the passer's seconds left after it."""


@dataclass(frozen=True, slots=True)
class Undone:
    """An accepted takeback: the last `count` moves and passes (1 or 2) are taken back, and
    `seat` (the seat that asked) has the turn."""

    seq: int
    seat: int
    count: int
    left: tuple[float, float] | None = field(default=None, compare=False)
    """With a time control, each seat's seconds left after it."""


@dataclass(frozen=True, slots=True)
class Ended:
    """The match is over (always the last event); `seat` is the seat the reason is about."""

    seq: int
    reason: str
    seat: int
    at: int | None = None
    """The event the end is about: the disputed move or pass, the illegal move, the move a
    referee found ending the game (None: the relay did not say)."""
    detail: str = ""
    """Why, in words: the reason the disputing game gave, the referee's, or for an agreed or
    unconfirmed end the game-ending move's own words ("" for none)."""
    winner: int | None = None
    """The seat a referee found the winner (None: a draw, or no referee decided)."""
    refereed: bool = False
    """Whether a referee decided this end (then `winner` is its verdict)."""


Event = Started | Moved | Passed | Undone | Ended
"""One numbered event of a match's log."""


def parse_event(raw: Any) -> Event:
    """Returns the typed event for one JSON object of an events answer."""
    try:
        kind, seq = raw["type"], raw["seq"]
        if type(seq) is not int or seq < 1:
            raise ProtocolError(BAD_EVENT.format(event=raw))
        if kind == "started":
            control = TimeControl.from_json(raw.get("time_control"))
            left = None if control is None else _lefts(raw["left"], raw)
            return Started(seq, _seat(raw["first"], raw), control, left)
        if kind == "move":
            move, end = raw["move"], raw["end"]
            claim = raw.get("claim")
            if isinstance(move, str) and isinstance(end, bool) and claim in (None, *CLAIMS):
                seat, spent = _seat(raw["seat"], raw), _left(raw.get("left"), raw)
                return Moved(seq, seat, move, end, spent, claim)
        elif kind == "pass":
            return Passed(seq, _seat(raw["seat"], raw), _left(raw.get("left"), raw))
        elif kind == "undo" and raw["count"] in (1, 2) and type(raw["count"]) is int:
            left = None if raw.get("left") is None else _lefts(raw["left"], raw)
            return Undone(seq, _seat(raw["seat"], raw), raw["count"], left)
        elif kind == "ended" and raw["reason"] in ENDED_REASONS:
            return _ended(seq, raw)
    except (KeyError, TypeError, ValueError):
        pass
    raise ProtocolError(BAD_EVENT.format(event=raw))


def _ended(seq: int, raw: Any) -> Ended:
    at, detail = raw.get("at"), raw.get("detail")
    detail = "" if detail is None else detail
    if at is not None and (type(at) is not int or not 1 <= at < seq):
        raise ProtocolError(BAD_EVENT.format(event=raw))
    if not isinstance(detail, str):
        raise ProtocolError(BAD_EVENT.format(event=raw))
    refereed = "winner" in raw
    winner = raw.get("winner")
    winner = None if winner is None else _seat(winner, raw)
    return Ended(seq, raw["reason"], _seat(raw["seat"], raw), at, detail, winner, refereed)


def _left(value: Any, raw: Any) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float) or value < 0:
        raise ProtocolError(BAD_EVENT.format(event=raw))
    return float(value)


def _lefts(value: Any, raw: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError(BAD_EVENT.format(event=raw))
    first, second = (_left(item, raw) for item in value)
    if first is None or second is None:
        raise ProtocolError(BAD_EVENT.format(event=raw))
    return first, second


def _seat(value: Any, raw: Any) -> int:
    if value not in (0, 1) or type(value) is not int:
        raise ProtocolError(BAD_EVENT.format(event=raw))
    return value
