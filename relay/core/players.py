"""Player keys and contact handles: a seeker's second key to its seats, and the matches it
seated, listed for a correspondence player coming back days later."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.model import MatchInfo, Status
from relay.core.patterns import KEY
from relay.core.standings import seat_id

__all__ = [
    "BUSY",
    "CONTACT",
    "CONTACT_MOST",
    "LISTED",
    "NOT_A_PLAYER_KEY",
    "PLAYER",
    "PlayerMatch",
    "last_name",
    "listing",
    "over_limit",
    "patience",
    "same_player",
    "too_many",
]

PLAYER = KEY
"""A player key: 32 to 128 URL-safe characters, which its client must draw at random."""

CONTACT_MOST = 200
"""Characters a contact handle may have."""

CONTACT = re.compile(r"[^\x00-\x1f\x7f-\x9f]{1," + str(CONTACT_MOST) + "}")
"""A contact handle: 1 to CONTACT_MOST characters, none of them a control character (C0, DEL
or C1); OpenAPI states the same pattern."""

NOT_A_PLAYER_KEY = (
    "The bearer is not a player key: 32 to 128 characters from A-Z a-z 0-9 _ -, drawn at random."
)

LISTED = 100
"""Matches GET /v1/player/matches lists at most, and matches not finished a player key may
have (a seek past it is refused with player/too_many)."""


def patience(control: TimeControl | None, grace: float) -> float:
    """Returns the seconds of polling silence a match waits out before a seek lapses or a
    game-over move goes unconfirmed: --grace, or with a per-move deadline control the longer
    of --grace and the control's time per move (a correspondence player polls seldom)."""
    if control is not None and control.kind == "deadline":
        return max(grace, float(control.base))
    return grace


def same_player(room: str) -> RelayError:
    """Returns the error refusing a room seek by the player key of the seat waiting there."""
    return RelayError(
        "room/same_player",
        f"Room {room!r} is held by a seek of this same player key: a player key never plays "
        "itself.",
    )


BUSY = frozenset((Status.WAITING, Status.PLAYING, Status.ENDING))
"""The statuses of a match not finished: a player key may have LISTED such matches (a
finished match, a cancelled or dropped seek do not count)."""


def over_limit(statuses: Iterable[Status]) -> bool:
    """Returns whether a player key whose matches have these statuses may seek no more: it
    has LISTED matches not finished (both stores refuse by this rule)."""
    return sum(1 for status in statuses if status in BUSY) >= LISTED


def too_many() -> RelayError:
    """Returns the error refusing a seek by a player key that has LISTED matches not over."""
    return RelayError(
        "player/too_many",
        f"This player key already has {LISTED} matches not finished; finish or cancel some.",
        retry_after=60.0,
    )


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One match a player key seated, as GET /v1/player/matches lists it."""

    info: MatchInfo
    seat: int
    opened: float
    """When the key's seek took the seat (seconds since the epoch)."""
    since: float
    """When the match last changed status (finished ones are listed newest first)."""
    result: dict[str, object] | None = None
    """The ended event's reason and seat (and winner, at, detail when it has them:
    relay.core.verdicts.result_of), once the match is finished."""
    rating: tuple[float, float] | None = None
    """The key's rating before and after the match, once it is rated."""


def last_name(found: list[PlayerMatch]) -> str | None:
    """Returns the name a player key last sought under: its seat's name in the match it seated
    last that has one; None when none has (or the relay keeps no names)."""
    named = [(entry.opened, entry.info.names[entry.seat]) for entry in found]
    return max(((at, name) for at, name in named if name), default=(0.0, None))[1]


def listing(found: list[PlayerMatch], now: float, names: bool = True) -> list[dict[str, object]]:
    """Returns the answer's list: the key's turn first (least time left first), then the
    partner's turn, then waiting, then finished (newest first); at most LISTED. Each entry
    names its first mover, its seats' names (both null on a relay that keeps no names) and
    their public ids (null for a seat taken without a player key)."""

    def left(entry: PlayerMatch) -> list[float] | None:
        clock = entry.info.clock
        return None if clock is None else list(clock.left_at(entry.info.turn, now))

    def order(entry: PlayerMatch) -> tuple[int, float]:
        info = entry.info
        if info.status is Status.PLAYING and info.turn == entry.seat:
            times = left(entry)
            return 0, (float("inf") if times is None else times[entry.seat])
        if info.status in (Status.PLAYING, Status.ENDING):
            return 1, -entry.opened
        if info.status is Status.WAITING:
            return 2, -entry.opened
        return 3, -entry.since

    answer: list[dict[str, object]] = []
    for entry in sorted(found, key=order)[:LISTED]:
        info = entry.info
        clock = info.clock
        row: dict[str, object] = {
            "match": info.match,
            "game": info.game,
            "version": info.version,
            "room": info.room,
            "seat": entry.seat,
            "status": info.status.value,
            "turn": info.turn,
            "your_turn": info.status is Status.PLAYING and info.turn == entry.seat,
            "time_control": None if clock is None else clock.control.as_dict(),
            "left": left(entry),
            "last": info.last,
            "first": info.first,
            "names": list(info.names) if names else [None, None],
            "players": [seat_id(info.keys[0]), seat_id(info.keys[1])],
        }
        if entry.result is not None:
            row["result"] = entry.result
        if entry.rating is not None:
            before, after = entry.rating
            row["rating"] = {"before": round(before, 1), "after": round(after, 1)}
        answer.append(row)
    return answer
