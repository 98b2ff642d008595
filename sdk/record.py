"""A match's record as the relay serves it: who played what, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from sdk.errors import ProtocolError
from sdk.events import Ended, Event, Moved, Passed, Undone, parse_event
from sdk.table import ChatLine

__all__ = ["Record", "parse_record"]

NOT_A_RECORD = "the relay's record of {match} is not format 1: {problem}"


@dataclass(frozen=True, slots=True)
class Record:
    """A finished or live match: its game, who moved first, its log, and its result."""

    match: str
    game: str
    version: str
    room: str | None
    first: int | None
    """The seat that moved first (None for a seek nobody joined)."""
    status: str
    """waiting, playing, ending or finished."""
    result: tuple[str, int] | None
    """How a finished match ended: the reason and the seat it is about (None while live)."""
    events: list[Event]
    names: tuple[str | None, str | None] = (None, None)
    """Each seat's display name."""
    chat: tuple[ChatLine, ...] = ()
    """The match's chat, when the reader may read it (a seat's key, or a relay that shows
    it to everyone)."""
    ending: Ended | None = None
    """How a finished match ended, in full (None while live): the header's result as an
    `Ended` (numbered as the log's last event), with the event it is about (`at`), the
    reason given (`detail`: a dispute's, or the referee's) and a referee's `winner`."""

    @property
    def moves(self) -> list[Moved]:
        """Returns the moves of the game as it was played to the end, in order: without those
        an accepted takeback (an `undo` event) took back."""
        plies: list[Moved | Passed] = []
        for event in self.events:
            if isinstance(event, Moved | Passed):
                plies.append(event)
            elif isinstance(event, Undone):
                del plies[len(plies) - event.count :]
        return [ply for ply in plies if isinstance(ply, Moved)]


def parse_record(match: str, text: bytes) -> Record:
    """Returns the record read from the relay's JSON Lines answer."""
    try:
        header, *lines = [orjson.loads(line) for line in text.splitlines() if line.strip()]
        if header.get("record") != 1:
            raise ValueError(f"header {header!r}")
        result: Any = header.get("result")
        count = int(header.get("events", len(lines)))
        names = header.get("names") or [None, None]
        chat = tuple(
            ChatLine(int(line["n"]), int(line["seat"]), str(line["text"]), int(line["at"]),
                     float(line["time"]))
            for line in lines[count:]
        )  # fmt: skip
        return Record(
            match=str(header["match"]),
            game=str(header["game"]),
            version=str(header["version"]),
            room=header["room"],
            first=header["first"],
            status=str(header["status"]),
            result=None if result is None else (str(result["reason"]), int(result["seat"])),
            events=[parse_event(line) for line in lines[:count]],
            names=(names[0], names[1]),
            chat=chat,
            ending=None if result is None else _ending(result, count),
        )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ProtocolError(NOT_A_RECORD.format(match=match, problem=error)) from None


def _ending(result: Any, last: int) -> Ended:
    """Returns the header's result read as the `ended` event it comes from."""
    seq = max(last, 1, (result.get("at") or 0) + 1)
    ended = parse_event({**result, "type": "ended", "seq": seq})
    assert isinstance(ended, Ended)
    return ended
