"""Ticket: one side's seat in a match, and its JSON form, to save it and resume after a restart."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

__all__ = ["Ticket"]

NOT_A_TICKET = "not a saved ticket ({why}): {text!r}"


@dataclass(frozen=True, slots=True)
class Ticket:
    """A seat in a match: keep it to resume the match after a restart.

    `to_json()` and `Ticket.from_json()` turn it into text and back, `save()` and `load()`
    into a file and back; the JavaScript host's `ticketToJSON` and `ticketFromJSON` read and
    write the same text. The token is a secret: whoever has it plays the seat.
    """

    match: str
    """The match id."""
    seat: int
    """0 for the first seeker, 1 for the second."""
    token: str = field(repr=False)
    """The seat's secret; sent only in the Authorization header, never shown in a repr."""

    def to_json(self) -> str:
        """Returns the ticket as a JSON object: {"match": ..., "seat": ..., "token": ...}."""
        return orjson.dumps({"match": self.match, "seat": self.seat, "token": self.token}).decode()

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
        return cls(match, seat, token)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the ticket to a file that only this user can read (it holds the token)."""
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
