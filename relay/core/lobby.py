"""The lobby: per game, the public open seeks, the live matches and the recently finished
ones, for players to join and spectators to watch.

A store keeps, per game and kind, a bounded list of entries (a match id and a time) and a
version number that grows with each change. Entries only point to matches: a reader looks
each match up, drops an entry whose match is gone, and moves one whose match changed state
to the list it now belongs in (which is a change, so the version grows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from relay.core.model import MatchInfo, Status

__all__ = [
    "KINDS",
    "Lobby",
    "LobbyEntry",
    "LobbyKind",
    "heal",
    "kind_of",
    "lobby_entry_json",
    "moves_of",
]

LobbyKind = Literal["open", "live", "recent"]
"""A lobby list: seeks waiting for a player, matches being played, matches just finished."""

KINDS: tuple[LobbyKind, ...] = ("open", "live", "recent")


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """One listed match, looked up when the lobby is read."""

    kind: LobbyKind
    since: float
    """When it was listed: the seek (open), the start of play (live and recent)."""
    info: MatchInfo


@dataclass(frozen=True, slots=True)
class Lobby:
    """A game's lobby as read at one version."""

    game: str
    version: int
    entries: tuple[LobbyEntry, ...]


def kind_of(status: Status) -> LobbyKind | None:
    """Returns the list a match of this status belongs in, or None (an expired seek)."""
    if status is Status.WAITING:
        return "open"
    if status in (Status.PLAYING, Status.ENDING):
        return "live"
    if status is Status.FINISHED:
        return "recent"
    return None


def heal(kind: LobbyKind, info: MatchInfo | None) -> LobbyKind | None:
    """Returns the list an entry listed under kind belongs in now that its match is info
    (None: gone), or None when the entry is to be dropped. A match only moves on (open, then
    live, then recent): an entry whose match would go back to an earlier list is stale, and
    is dropped. Both stores heal their lists by this rule as they read them."""
    now = None if info is None else kind_of(info.status)
    if kind == "live" and now == "open":
        return kind  # paired, and it starts at seat 0's next poll (Matches.seek)
    if now is not None and KINDS.index(now) < KINDS.index(kind):
        return None
    return now


def moves_of(info: MatchInfo) -> int:
    """Returns how many moves and passes a match's log holds (not started nor ended)."""
    if info.status is Status.WAITING:
        return 0
    return max(0, info.last - 1 - (1 if info.status is Status.FINISHED else 0))


def lobby_entry_json(entry: LobbyEntry) -> dict[str, object]:
    """Returns an entry as the lobby endpoint sends it."""
    info = entry.info
    return {
        "match": info.match,
        "game": info.game,
        "version": info.version,
        "room": info.room,
        "status": info.status.value,
        "moves": moves_of(info),
        "since": round(entry.since, 3),
        "time_control": None if info.clock is None else info.clock.control.as_dict(),
        "names": list(info.names),
    }
