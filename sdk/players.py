"""Player keys: one secret a correspondence player keeps, which lists its matches and takes
up any of them again, from any device (docs/protocol.md#correspondence).

A client draws the key once (`new_player_key()`), gives it at each seek, and keeps it: the
relay keeps only its digest. `RelayClient.player_matches(key)` lists the matches;
`PlayerMatch.ticket(key)` is the seat to resume, the key being its bearer.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdk.clock import TimeControl
from sdk.ratings import RatingChange
from sdk.ticket import Ticket

__all__ = ["PlayerMatch", "load_player_key", "new_player_key", "player_name"]


def new_player_key() -> str:
    """Returns a fresh player key: 43 random URL-safe characters."""
    return secrets.token_urlsafe(32)


def load_player_key(path: Path) -> str:
    """Returns the player key kept in the file at path, drawing one and keeping it there
    (readable by its owner only) when the file does not exist yet."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = new_player_key()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


def player_name(key_file: Path, given: str | None = None) -> str | None:
    """Returns the display name kept beside a player key's file (`<file>.name`), keeping
    `given` there first when given: a player's name stays the same in every match it seeks
    with that key, until it gives another. None when no name was ever given."""
    path = key_file.with_name(key_file.name + ".name")
    if given is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole to a file of its own, then renamed: two clients never mix their names.
        fresh = path.with_name(f"{path.name}.{os.getpid()}")
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(given + "\n")
        os.replace(fresh, path)
        return given
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return None
    return lines[0].strip() or None if lines else None


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One match of a player key's list, as the relay answered it."""

    match: str
    game: str
    version: str
    seat: int
    """The key's seat."""
    status: str
    """waiting, playing, ending or finished."""
    turn: int | None
    """The seat to move (None unless playing)."""
    your_turn: bool
    time_control: TimeControl | None
    left: tuple[float, float] | None
    """Each seat's seconds left when the list was read (None without a time control)."""
    last: int
    """The number of the match's last event."""
    result: tuple[str, int] | None = None
    """Once finished, the `ended` event's reason and seat."""
    rating: RatingChange | None = None
    """Once rated, the key's rating before and after the match."""

    @classmethod
    def from_json(cls, raw: Any) -> PlayerMatch:
        """Returns the entry of one row of GET /v1/player/matches; raises KeyError,
        TypeError or ValueError for a row the protocol does not define."""
        left = raw["left"]
        result, rating = raw.get("result"), raw.get("rating")
        return cls(
            match=str(raw["match"]),
            game=str(raw["game"]),
            version=str(raw["version"]),
            seat=int(raw["seat"]),
            status=str(raw["status"]),
            turn=None if raw["turn"] is None else int(raw["turn"]),
            your_turn=bool(raw["your_turn"]),
            time_control=TimeControl.from_json(raw["time_control"]),
            left=None if left is None else (float(left[0]), float(left[1])),
            last=int(raw["last"]),
            result=None if result is None else (str(result["reason"]), int(result["seat"])),
            rating=None if rating is None else RatingChange.from_json(rating),
        )

    def ticket(self, player: str) -> Ticket:
        """Returns the seat to resume with the player key as its bearer."""
        return Ticket(self.match, self.seat, player)
