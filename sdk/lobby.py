"""The lobby of a game, as the relay lists it: public open seeks, live and recent matches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdk.errors import ProtocolError

__all__ = ["Lobby", "LobbyEntry", "parse_lobby"]

NOT_A_LOBBY = "the relay's answer about a lobby is not protocol v1: {body!r}"


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """One listed match: join it (open) or watch it (live, recent)."""

    match: str
    game: str
    version: str
    room: str | None
    status: str
    moves: int
    since: float


@dataclass(frozen=True, slots=True)
class Lobby:
    """A game's lobby at one version."""

    game: str
    version: int
    open: tuple[LobbyEntry, ...]
    live: tuple[LobbyEntry, ...]
    recent: tuple[LobbyEntry, ...]


def _entry(raw: Any) -> LobbyEntry:
    room = raw["room"]
    return LobbyEntry(
        str(raw["match"]),
        str(raw["game"]),
        str(raw["version"]),
        None if room is None else str(room),
        str(raw["status"]),
        int(raw["moves"]),
        float(raw["since"]),
    )


def parse_lobby(answer: Any) -> Lobby:
    """Returns the Lobby of a relay's JSON answer; raises ProtocolError if it is not one."""
    try:
        return Lobby(
            str(answer["game"]),
            int(answer["version"]),
            tuple(_entry(raw) for raw in answer["open"]),
            tuple(_entry(raw) for raw in answer["live"]),
            tuple(_entry(raw) for raw in answer["recent"]),
        )
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_A_LOBBY.format(body=answer)) from None
