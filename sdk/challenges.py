"""Challenges as the relay answers them: a player key's challenge to another on its terms,
made to it or by it, and where it stands (docs/protocol.md#challenges)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sdk.errors import ProtocolError

__all__ = ["Challenge", "ChallengeState", "Challenges", "parse_challenge", "parse_challenges"]

ChallengeState = Literal["open", "accepted", "declined", "withdrawn", "lapsed"]
"""Where a challenge stands; every state but open is final."""

NOT_A_CHALLENGE = "The relay answered something that is not a challenge: {body!r}."


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge: who made it to whom (public ids and names), its terms, where it stands,
    and, once accepted, its match (the challenger in seat 0, the challenged key in seat 1)."""

    id: str
    sender: str
    """The challenger's public id."""
    sender_name: str | None
    receiver: str
    """The challenged key's public id."""
    receiver_name: str | None
    game: str
    version: str
    time_control: dict[str, Any] | None
    """As the relay writes it: {"kind": "fischer", "base", "increment"} or {"kind":
    "deadline", "per_move"}; None for no clock."""
    colour: str
    """The challenger's: 'first', 'second' or 'random'."""
    rated: bool
    at: float
    until: float
    """When it lapses while open (seconds since the epoch)."""
    state: ChallengeState
    match: str | None
    """The match an accept made."""


@dataclass(frozen=True, slots=True)
class Challenges:
    """A key's challenges: made to it and by it, and their version (GET
    /v1/player/challenges)."""

    version: int
    incoming: list[Challenge]
    outgoing: list[Challenge]


def parse_challenge(row: Any) -> Challenge:
    """Returns a challenge of the relay's answer; raises ProtocolError."""
    try:
        state = row["state"]
        if state not in ("open", "accepted", "declined", "withdrawn", "lapsed"):
            raise ValueError(state)
        return Challenge(
            str(row["id"]), str(row["from"]["id"]), row["from"]["name"], str(row["to"]["id"]),
            row["to"]["name"], str(row["game"]), str(row["version"]), row["time_control"],
            str(row["colour"]), bool(row["rated"]), float(row["at"]), float(row["until"]),
            state, row["match"],
        )  # fmt: skip
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_A_CHALLENGE.format(body=row)) from None


def parse_challenges(answer: Any) -> Challenges:
    """Returns the challenges of GET /v1/player/challenges; raises ProtocolError."""
    try:
        return Challenges(
            int(answer["version"]),
            [parse_challenge(row) for row in answer["incoming"]],
            [parse_challenge(row) for row in answer["outgoing"]],
        )
    except (KeyError, TypeError, ValueError):
        raise ProtocolError(NOT_A_CHALLENGE.format(body=answer)) from None
