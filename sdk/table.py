"""The table around a match (docs/protocol.md, "The table"): the seats' names, whether each
is here, the last draw offer or takeback request, the chat, and when a staller may be
claimed against, as the relay reports them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sdk.errors import ProtocolError

__all__ = ["ChatLine", "Offer", "OfferKind", "Presence", "Table", "parse_table"]

OfferKind = Literal["draw", "takeback"]
"""What a seat may offer during play: a draw, or to take back its last move."""

OfferState = Literal["offered", "accepted", "declined", "withdrawn", "lapsed"]
"""Where the last offer stands."""

_KINDS = ("draw", "takeback")
_STATES = ("offered", "accepted", "declined", "withdrawn", "lapsed")
NOT_A_TABLE = "the relay's answer about a table is not protocol v1: {body!r}"


@dataclass(frozen=True, slots=True)
class Presence:
    """Whether a seat is here: it holds a poll, or went within a few seconds."""

    here: bool
    since: float | None = None
    """When it went away (seconds since the epoch), when it is not here."""
    abandon_in: float | None = None
    """Seconds (at the answer) until it abandons unless it comes back; None when it never
    will (a correspondence match) or is here."""


@dataclass(frozen=True, slots=True)
class Offer:
    """The last draw offer or takeback request of a match."""

    kind: OfferKind
    by: int
    """The seat that made it."""
    at: int
    """The log's last event when it was made: an acceptance names it."""
    state: OfferState
    count: int | None = None
    """For a takeback, how many moves and passes it takes back (1 or 2)."""

    @property
    def standing(self) -> bool:
        """Returns whether it waits for an answer."""
        return self.state == "offered"


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a match's chat."""

    n: int
    """Its number in the chat, from 1."""
    seat: int
    text: str
    """The text as said: show it as text, never as markup."""
    at: int
    """The log's last event when it was said."""
    time: float


@dataclass(frozen=True, slots=True)
class Table:
    """A match's table as the relay last reported it."""

    version: int
    names: tuple[str | None, str | None]
    presence: tuple[Presence, Presence]
    offer: Offer | None
    chat: tuple[ChatLine, ...]
    """The lines the answer carried (those above the reader's chat cursor)."""
    claim_in: float | None
    """Seconds (at the answer) until the seat not to move may claim the win from a staller;
    None when no claim is possible."""
    claim_after: float | None = None
    """The relay's claim time in this match (None: no claim in it): each turn's claim time,
    counted from the turn's start."""


def parse_table(answer: Any) -> Table:
    """Returns the Table of a relay's JSON answer; raises ProtocolError if it is not one."""
    try:
        names = answer["names"]
        presence = answer["presence"]
        if len(names) != 2 or len(presence) != 2:
            raise TypeError
        raw_offer = answer["offer"]
        offer = None
        if raw_offer is not None:
            if raw_offer["kind"] not in _KINDS or raw_offer["state"] not in _STATES:
                raise TypeError
            offer = Offer(
                raw_offer["kind"],
                _seat(raw_offer["by"]),
                int(raw_offer["at"]),
                raw_offer["state"],
                raw_offer.get("count"),
            )
        chat = tuple(
            ChatLine(int(line["n"]), _seat(line["seat"]), str(line["text"]), int(line["at"]),
                     float(line["time"]))
            for line in answer["chat"]
        )  # fmt: skip
        claim, after = answer["claim_in"], answer.get("claim_after")
        return Table(
            int(answer["version"]),
            (_name(names[0]), _name(names[1])),
            (_presence(presence[0]), _presence(presence[1])),
            offer,
            chat,
            None if claim is None else float(claim),
            None if after is None else float(after),
        )
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_A_TABLE.format(body=answer)) from None


def _seat(value: Any) -> int:
    if value not in (0, 1) or type(value) is not int:
        raise ValueError(value)
    return int(value)


def _name(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(value)
    return value


def _presence(raw: Any) -> Presence:
    here = raw["here"]
    if not isinstance(here, bool):
        raise TypeError(here)
    if here:
        return Presence(True)
    since, due = raw.get("since"), raw.get("abandon_in")
    return Presence(
        False, None if since is None else float(since), None if due is None else float(due)
    )
