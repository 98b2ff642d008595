"""The answers of the Redis store's scripts, decoded into named fields (lua/*.lua say what
each script answers; a refusal {'e', code[, detail]} never gets here: see refusals)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = [
    "Acted", "Joined", "Picked", "Polled", "Reaped", "Roomed", "Tell", "TurnGiven", "turn_given",
]  # fmt: skip


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class TurnGiven(NamedTuple):
    """A turn a script gave to a seat with a contact (in a correspondence match) or a player
    key (in a match with a time control): what its turn notice (relay.core.turns.TurnNotice)
    needs beside the match and the event."""

    seat: int
    contact: str
    game: str
    due: float
    """When the seat's time runs out, in seconds since the epoch."""
    player: str = ""
    """The digest of the seat's player key ('': none)."""
    correspondence: bool = True
    """Whether the match has a per-move deadline."""


Tell = Callable[[str, "TurnGiven | None", int], None]
"""Tells the turn sink of the turn a script gave (if any), for its event seq."""


def turn_given(tail: list[Any]) -> TurnGiven | None:
    """Returns the turn a reply's tail gives ({'n', seat, contact, game, due in ms, player
    key digest, '1' for a per-move deadline}), or None for an empty tail (no time control,
    or neither a contact nor a player key to tell)."""
    if len(tail) != 7 or tail[0] != b"n":
        return None
    seat, contact, game, due, player, deadline = (_text(value) for value in tail[1:])
    return TurnGiven(int(seat), contact, game, int(due) / 1000, player, deadline == "1")


class Polled(NamedTuple):
    """POLL's answer {'ok', seat, events, status, tv, pj}: the reader's seat (None for a
    spectator), the events above its cursor, the match's status, its table's version (1 +
    the changes stored as 'tv') and, for a waiting match whose seat 1 is taken, when it was
    (None otherwise)."""

    seat: int | None
    events: list[bytes]
    status: bytes
    table: int
    paired: float | None

    @classmethod
    def of(cls, answer: list[Any]) -> Polled:
        """Decodes POLL's answer."""
        _, seat, events, status, changes, paired = answer
        return cls(
            None if seat < 0 else int(seat),
            list(events),
            status,
            int(changes) + 1,
            float(paired) if paired else None,
        )


class Acted(NamedTuple):
    """ACT's answer: {'ok', seq}, {'ok', seq, <notice>} when the partner is given the turn in
    a correspondence match, or {'ok', 0, game, queue} when a cancel expired a waiting match."""

    seq: int
    expired: tuple[str, str] | None
    """The game and queue of a waiting match the cancel expired (to unlist it)."""
    turn: TurnGiven | None

    @classmethod
    def of(cls, answer: list[Any]) -> Acted:
        """Decodes ACT's answer (asked without the table's changes)."""
        expired = (_text(answer[2]), _text(answer[3])) if len(answer) == 4 else None
        return cls(int(answer[1]), expired, turn_given(answer[2:]))

    @classmethod
    def with_table(cls, answer: list[Any]) -> tuple[Acted, int]:
        """Decodes ACT's answer asked with the table's changes: it and the table's version."""
        return cls.of(answer[:-1]), int(answer[-1]) + 1


class Joined(NamedTuple):
    """JOIN's answer: {'ok', seat, <notice>}, {'skip'} when the match can no longer be joined,
    or {'same'} when its other seat is the seeker's own player key."""

    kind: str
    """'ok', 'skip' or 'same'."""
    seat: int
    turn: TurnGiven | None

    @classmethod
    def of(cls, answer: list[Any]) -> Joined:
        """Decodes JOIN's answer."""
        kind = _text(answer[0])
        if kind != "ok":
            return cls(kind, -1, None)
        return cls(kind, int(answer[1]), turn_given(answer[2:]))


class Picked(NamedTuple):
    """PAIR's and PUSH's answer: {'open'} (open a match), {'ok'} (the match opened is
    queued), {'join', id} (join that match), or {'memo', id, seat} (this seek was answered
    before: the same seat again)."""

    kind: str
    match: str
    seat: int

    @classmethod
    def of(cls, answer: list[Any]) -> Picked:
        """Decodes PAIR's or PUSH's answer."""
        match = _text(answer[1]) if len(answer) > 1 else ""
        return cls(_text(answer[0]), match, int(answer[2]) if len(answer) > 2 else -1)


class Roomed(NamedTuple):
    """ROOM's answer: {'open', dropped} (the room may open a match, once its place is
    reserved) or {'ok', id, seat, <notice>, dropped}; dropped names a stale match the room
    held ('' for none), to unlist."""

    kind: str
    match: str
    seat: int
    turn: TurnGiven | None
    dropped: str

    @classmethod
    def of(cls, answer: list[Any]) -> Roomed:
        """Decodes ROOM's answer."""
        dropped = _text(answer[-1])
        if answer[0] == b"open":
            return cls("open", "", -1, None, dropped)
        return cls("ok", _text(answer[1]), int(answer[2]), turn_given(answer[3:-1]), dropped)


class Reaped(NamedTuple):
    """REAP's answer on one shard: matches changed, matches looked at, the seeks it expired
    (id, game, queue) and the matches it forgot (id, each seat's player key digest)."""

    changed: int
    looked: int
    expired: list[tuple[str, str, str]]
    gone: list[tuple[str, str, str]]

    @classmethod
    def of(cls, answer: list[Any]) -> Reaped:
        """Decodes REAP's answer (its lists flat, three values an entry)."""
        done, looked, expired, gone = answer

        def triples(flat: list[Any]) -> list[tuple[str, str, str]]:
            values = [_text(value) for value in flat]
            return [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]

        return cls(int(done), int(looked), triples(expired), triples(gone))
