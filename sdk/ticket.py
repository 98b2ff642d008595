"""Ticket: one side's seat in a match, and its JSON form, to save it and resume after a restart."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

__all__ = ["KEPT_LIMIT", "Ticket"]

NOT_A_TICKET = "not a saved ticket ({why}): {text!r}"
KEPT_LIMIT = 65536
"""The most characters of private game data a ticket keeps (GameHost.keep)."""
TOO_MUCH = "a ticket keeps at most {limit} characters of game data, not {size}"


@dataclass(frozen=True, slots=True)
class Ticket:
    """A seat in a match: keep it to resume the match after a restart.

    `to_json()` and `Ticket.from_json()` turn it into text and back, `save()` and `load()`
    into a file and back; the JavaScript host's `ticketToJSON` and `ticketFromJSON` read and
    write the same text. The token is a secret: whoever has it plays the seat. `kept` is the
    game's private data kept beside it (`GameHost.keep`), as secret.
    """

    match: str
    """The match id."""
    seat: int
    """0 for the first seeker, 1 for the second."""
    token: str = field(repr=False)
    """The seat's secret; sent only in the Authorization header, never shown in a repr."""
    kept: str | None = field(default=None, repr=False)
    """The game's private data for this match (its secret, its hidden board), kept with the
    seat by `GameHost.keep()` and handed back on resume as `host.kept`; never sent."""

    def __post_init__(self) -> None:
        if self.kept is not None and len(self.kept) > KEPT_LIMIT:
            raise ValueError(TOO_MUCH.format(limit=KEPT_LIMIT, size=len(self.kept)))

    def to_json(self) -> str:
        """Returns the ticket as a JSON object: {"match": ..., "seat": ..., "token": ...}, and
        "kept": ... when the game keeps data with it."""
        data: dict[str, Any] = {"match": self.match, "seat": self.seat, "token": self.token}
        if self.kept is not None:
            data["kept"] = self.kept
        return orjson.dumps(data).decode()

    @classmethod
    def from_json(cls, text: str | bytes) -> Ticket:
        """Returns the ticket that `to_json()` wrote; raises ValueError for anything else."""
        try:
            data: Any = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise ValueError(NOT_A_TICKET.format(why=f"not JSON: {exc}", text=text)) from None
        if not isinstance(data, dict):
            raise ValueError(NOT_A_TICKET.format(why="not a JSON object", text=text))
        match, seat, token = data.get("match"), data.get("seat"), data.get("token")
        if not isinstance(match, str) or not match:
            raise ValueError(NOT_A_TICKET.format(why="'match' is not a match id", text=text))
        if type(seat) is not int or seat not in (0, 1):
            raise ValueError(NOT_A_TICKET.format(why="'seat' is not 0 or 1", text=text))
        if not isinstance(token, str) or not token:
            raise ValueError(NOT_A_TICKET.format(why="'token' is not a token", text=text))
        kept = data.get("kept")
        if kept is not None and not isinstance(kept, str):
            raise ValueError(NOT_A_TICKET.format(why="'kept' is not text", text=text))
        return cls(match, seat, token, kept)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the ticket (with the game's kept data) to a file that only this user can
        read (it holds the token), replacing the file whole."""
        target = Path(path)
        temporary = target.with_name(target.name + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(self.to_json() + "\n")
        os.replace(temporary, target)  # a crash mid-write never leaves half a ticket

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Ticket:
        """Returns the ticket `save()` wrote to a file; raises OSError or ValueError."""
        return cls.from_json(Path(path).read_bytes())
