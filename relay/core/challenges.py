"""Challenges: a player key asks another, by its public id, to play a match on its terms
(docs/protocol.md#challenges); and the short list of public ids a key follows.

A challenge lives with the challenged key: its terms, written once, and where it stands
(open, accepted, declined, withdrawn, lapsed), changed once by an answer. The rules here are
pure: the stores keep the data and apply them atomically (the Redis store in Lua, by the same
rules)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from relay.core.clock import TimeControl
from relay.core.errors import RelayError

__all__ = [
    "ACTIONS",
    "COLOURS",
    "FOLLOWS_MOST",
    "IN_MOST",
    "KEPT",
    "LAPSE_CORRESPONDENCE",
    "LAPSE_LIVE",
    "LISTED_MOST",
    "OPPONENTS_MOST",
    "OUT_MOST",
    "PER_HOUR",
    "STRANGERS_MOST",
    "Challenge",
    "ChallengeAction",
    "ChallengeNotice",
    "ChallengeSink",
    "ChallengeState",
    "Colour",
    "Followed",
    "lapse_for",
    "listing_order",
    "new_challenge_id",
    "receiver_of",
    "settle",
]

Colour = Literal["first", "second", "random"]
"""Who the challenger is: the first mover, the second, or as a fair coin falls at the accept."""

COLOURS: tuple[str, ...] = get_args(Colour)

ChallengeState = Literal["open", "accepted", "declined", "withdrawn", "lapsed"]
"""Where a challenge stands; every state but open is final."""

ChallengeAction = Literal["accept", "decline", "withdraw"]
"""An answer: the challenged key accepts or declines, the challenger withdraws."""

ACTIONS: tuple[str, ...] = get_args(ChallengeAction)

LAPSE_LIVE = 600.0
"""Seconds an open challenge waits for its answer: its match starts at the accept, and a
challenger gone longer would lose it by abandonment."""

LAPSE_CORRESPONDENCE = 3 * 86_400.0
"""Seconds an open challenge with a per-move deadline waits: nobody need be there when a
correspondence match starts."""

KEPT = 600.0
"""Seconds a settled or lapsed challenge stays listed, so both sides see what became of it."""

OUT_MOST = 10
"""Open challenges a key may have made (challenge/too_many)."""

IN_MOST = 20
"""Open challenges a key may have been made (challenge/full)."""

STRANGERS_MOST = 10
"""Of those, from keys it does not follow: the rest are kept for the keys it follows."""

LISTED_MOST = 100
"""Challenges, open and settled, a key's list keeps each way (the oldest settled go first)."""

PER_HOUR = 30
"""Challenges a key may make in an hour, counted in the store (and an address, per process)."""

FOLLOWS_MOST = 50
"""Public ids a key may follow (follow/full)."""

OPPONENTS_MOST = 20
"""Recent opponents answered."""

ID_RANDOM = 12
"""Random characters of a challenge id after the challenged key's public id."""

_WORDS: dict[str, str] = {
    "accepted": "was accepted",
    "declined": "was declined",
    "withdrawn": "was withdrawn",
    "lapsed": "lapsed",
}


def new_challenge_id(receiver: str) -> str:
    """Returns a fresh, unguessable challenge id: the challenged key's public id (12
    characters; it names where the challenge is kept) and 12 random ones."""
    return receiver + secrets.token_urlsafe(9)


def receiver_of(challenge: str) -> str:
    """Returns the public id of the key a challenge id was made to."""
    return challenge[:12]


def lapse_for(control: TimeControl | None) -> float:
    """Returns how long a challenge on these terms stays open."""
    if control is not None and control.kind == "deadline":
        return LAPSE_CORRESPONDENCE
    return LAPSE_LIVE


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge: its terms, fixed when made, and where it stands."""

    id: str
    sender: str
    """The challenger's public id."""
    sender_key: str
    """The challenger's player key's digest (kept in the store, never answered)."""
    sender_name: str | None
    receiver: str
    """The challenged key's public id."""
    receiver_key: str
    game: str
    version: str
    control: TimeControl | None
    colour: Colour
    rated: bool
    at: float
    until: float
    """When it lapses while open."""
    state: ChallengeState = "open"
    match: str | None = None
    """The match an accept made."""
    first: int | None = None
    """The seat that moves first in that match (the challenger sits in seat 0)."""
    settled: float | None = None
    """When an answer settled it."""
    receiver_name: str | None = None
    """The name the challenged key accepted under."""

    def seen(self, now: float) -> Challenge:
        """Returns the challenge as it stands at now: open past its time, it lapsed."""
        if self.state == "open" and self.until <= now:
            return replace(self, state="lapsed")
        return self

    def forget_at(self) -> float:
        """Returns when the challenge is no longer listed."""
        ended = self.until if self.settled is None else min(self.settled, self.until)
        return ended + KEPT

    def terms(self) -> dict[str, Any]:
        """Returns the fixed part, as a store keeps it."""
        return {
            "id": self.id, "sender": self.sender, "sender_key": self.sender_key,
            "sender_name": self.sender_name, "receiver": self.receiver,
            "receiver_key": self.receiver_key, "game": self.game, "version": self.version,
            "control": None if self.control is None else self.control.key,
            "colour": self.colour, "rated": self.rated, "at": self.at, "until": self.until,
        }  # fmt: skip

    @classmethod
    def from_terms(cls, terms: dict[str, Any]) -> Challenge:
        """Returns an open challenge from its fixed part (terms())."""
        return cls(
            terms["id"], terms["sender"], terms["sender_key"], terms["sender_name"],
            terms["receiver"], terms["receiver_key"], terms["game"], terms["version"],
            TimeControl.from_key(terms["control"] or ""), terms["colour"], terms["rated"],
            terms["at"], terms["until"],
        )  # fmt: skip

    def answer(self, names: bool = True) -> dict[str, Any]:
        """Returns the challenge as the relay answers it (no digest)."""
        control = None if self.control is None else self.control.as_dict()
        return {
            "id": self.id,
            "from": {"id": self.sender, "name": self.sender_name if names else None},
            "to": {"id": self.receiver, "name": self.receiver_name if names else None},
            "game": self.game,
            "version": self.version,
            "time_control": control,
            "colour": self.colour,
            "rated": self.rated,
            "at": self.at,
            "until": self.until,
            "state": self.state,
            "match": self.match,
        }


def settle(
    challenge: Challenge,
    actor: str,
    action: ChallengeAction,
    now: float,
    match: str,
    coin: int,
    name: str | None = None,
) -> Challenge:
    """Returns the challenge after the key of digest `actor` answered it: accepted (naming
    `match` as its new match, the first mover by its colour or by `coin`), declined or
    withdrawn. The same answer again returns it unchanged (an accept: the same match).

    Raises challenge/unknown when the actor may not give this answer (only the challenged key
    accepts and declines, only the challenger withdraws), challenge/settled when another
    answer or its lapse settled it first."""
    allowed = challenge.sender_key if action == "withdraw" else challenge.receiver_key
    if actor != allowed:
        raise RelayError("challenge/unknown")
    current = challenge.seen(now)
    done = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[action]
    if current.state == done:
        return current
    if current.state != "open":
        raise RelayError("challenge/settled", f"The challenge {_WORDS[current.state]} already.")
    if action != "accept":
        return replace(current, state=done, settled=now)  # type: ignore[arg-type]
    first = {"first": 0, "second": 1}.get(challenge.colour, coin)
    return replace(
        current, state="accepted", settled=now, match=match, first=first, receiver_name=name
    )


def listing_order(found: list[Challenge]) -> list[Challenge]:
    """Returns challenges as a list answers them: open ones oldest first, then the settled
    ones newest first."""
    open_ = sorted((c for c in found if c.state == "open"), key=lambda c: c.at)
    done = sorted((c for c in found if c.state != "open"), key=lambda c: -c.at)
    return open_ + done


@dataclass(frozen=True, slots=True)
class Followed:
    """A public id a key follows, with the name its page gave it."""

    id: str
    name: str | None
    at: float

    def as_dict(self) -> dict[str, Any]:
        """Returns the entry as the relay answers and a store keeps it."""
        return {"id": self.id, "name": self.name, "at": self.at}

    @classmethod
    def from_dict(cls, found: dict[str, Any]) -> Followed:
        """Returns an entry from its as_dict()."""
        return cls(found["id"], found["name"], found["at"])


@dataclass(frozen=True, slots=True)
class ChallengeNotice:
    """What the relay tells of a challenge made, once it is stored (for Web Push)."""

    player: str
    """The challenged player key's digest."""
    challenge: str
    """The challenge's id."""
    name: str | None
    """The challenger's display name (None: it gave none)."""
    game: str
    until: float
    """When the challenge lapses (seconds since the epoch)."""


ChallengeSink = Callable[[ChallengeNotice], None]
"""Told of each challenge made, after it is stored; it must not block (it queues)."""
