"""Rematches: after a match ends, both seats may agree to play again, first mover swapped.

The offer and its answer live beside the finished match (never in its event log, whose
last event stays `ended`): a version number, each seat's offer, and once both seats offered,
the id of the new match. The new match has the same game, version and seats (each seat
keeps its token), and the seat that moved second in the old match moves first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import orjson

from relay.core.errors import RelayError

__all__ = [
    "NONE",
    "Rematch",
    "RematchOp",
    "RematchState",
    "lapse_at",
    "not_finished",
    "rematch_body",
    "step",
]

RematchOp = Literal["read", "offer", "decline"]
"""What a call does to a rematch: only read it, offer (or accept) one, decline it."""

RematchState = Literal["none", "offered", "accepted", "declined", "lapsed"]
"""Where a rematch stands: no offer yet; one seat offers; both offered (a new match began);
a seat declined; the offer lapsed after the grace period."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """The rematch of one match, as both seats and every spectator read it."""

    version: int
    """Grows by one with each change; a long-poll waits for a version above its own."""
    state: RematchState
    offers: tuple[bool, bool]
    """Whether each seat offers (or, once accepted, offered) a rematch."""
    by: int | None = None
    """The seat that declined, when state is 'declined'."""
    match: str | None = None
    """The new match, when state is 'accepted'."""
    offered_at: float | None = None
    """When the standing offer was made (it lapses a grace period later)."""
    first: int | None = None
    """The seat that moves first in the new match, when state is 'accepted'."""


NONE = Rematch(0, "none", (False, False))
"""The rematch of a match nobody offered one for."""


def step(
    rematch: Rematch,
    op: RematchOp,
    seat: int | None,
    now: float,
    grace: float,
    new_match: str,
    old_first: int | None,
) -> Rematch:
    """Returns the rematch after one call: an offer standing past the grace period lapses
    first; then seat offers (accepting the partner's offer, which names new_match as the
    new match) or declines (an offer standing, or ahead of any). Repeating an offer or a
    decline changes nothing. The caller
    has checked that the match is over (for offer and decline) and that seat is a seat."""
    due = lapse_at(rematch, grace)
    if due is not None and due < now:
        rematch = Rematch(rematch.version + 1, "lapsed", (False, False))
    if op == "read" or seat is None:
        return rematch
    if op == "offer":
        if rematch.state == "accepted" or rematch.offers[seat]:
            return rematch
        if rematch.offers[1 - seat]:
            first = None if old_first is None else 1 - old_first
            return Rematch(
                rematch.version + 1, "accepted", (True, True), match=new_match, first=first
            )
        offers = (True, False) if seat == 0 else (False, True)
        return Rematch(rematch.version + 1, "offered", offers, offered_at=now)
    if rematch.state == "accepted":
        raise RelayError("rematch/accepted")
    if rematch.state == "declined" and rematch.by == seat:
        return rematch
    # Declining with no offer standing says "no" ahead of time (a bot that plays one match).
    return Rematch(rematch.version + 1, "declined", (False, False), by=seat)


def lapse_at(rematch: Rematch, grace: float) -> float | None:
    """Returns when the standing offer lapses, or None when no offer stands."""
    if rematch.state != "offered" or rematch.offered_at is None:
        return None
    return rematch.offered_at + grace


def not_finished() -> RelayError:
    """Returns the error refusing a rematch offer for a match that is not over."""
    return RelayError("rematch/not_finished")


def rematch_body(rematch: Rematch) -> bytes:
    """Returns the JSON answer describing a rematch."""
    return orjson.dumps(
        {
            "version": rematch.version,
            "state": rematch.state,
            "offers": list(rematch.offers),
            "by": rematch.by,
            "match": rematch.match,
            "first": rematch.first,
        }
    )
