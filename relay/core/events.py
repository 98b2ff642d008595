"""A match's events as the bytes sent on the wire, built by formatting (docs/performance.md
says why not with orjson.dumps)."""

from __future__ import annotations

import orjson

from relay.core.clock import TimeControl, left_text
from relay.core.model import Event, Seat

__all__ = ["ended_event", "move_event", "pass_event", "started_event"]


def started_event(seq: int, first: Seat, control: TimeControl | None = None) -> Event:
    """Returns the event that opens play, giving the turn to `first`; with a time control,
    it names the control and each seat's starting seconds."""
    if control is None:
        return b'{"seq":%d,"type":"started","first":%d}' % (seq, first)
    start = left_text(control.base * 1000)
    return b'{"seq":%d,"type":"started","first":%d,"time_control":%b,"left":[%b,%b]}' % (
        seq, first, control.json(), start, start,
    )  # fmt: skip


def move_event(
    seq: int, seat: Seat, move: str, end: bool, left: int | None = None, claim: str | None = None
) -> Event:
    """Returns the event carrying a seat's move, byte-exact; with a clock, the milliseconds
    the mover has left after it; with a claim (a game-ending move's), the claim last."""
    if claim is not None:
        event = move_event(seq, seat, move, end, left)
        return event[:-1] + b',"claim":%b}' % orjson.dumps(claim)
    if left is None:
        return b'{"seq":%d,"type":"move","seat":%d,"move":%b,"end":%b}' % (
            seq, seat, orjson.dumps(move), b"true" if end else b"false",
        )  # fmt: skip
    return b'{"seq":%d,"type":"move","seat":%d,"move":%b,"end":%b,"left":%b}' % (
        seq, seat, orjson.dumps(move), b"true" if end else b"false", left_text(left),
    )  # fmt: skip


def pass_event(seq: int, seat: Seat, left: int | None = None) -> Event:
    """Returns the event of a seat passing its turn (with a clock, the time it has left)."""
    if left is None:
        return b'{"seq":%d,"type":"pass","seat":%d}' % (seq, seat)
    return b'{"seq":%d,"type":"pass","seat":%d,"left":%b}' % (seq, seat, left_text(left))


def ended_event(seq: int, reason: str, seat: Seat, tail: bytes = b"") -> Event:
    """Returns the last event of a match: why it ended and which seat that is about, then the
    fields of a dispute or a verdict (relay.core.verdicts), as JSON text."""
    return b'{"seq":%d,"type":"ended","reason":%b,"seat":%d%b}' % (
        seq, orjson.dumps(reason), seat, tail,
    )  # fmt: skip
