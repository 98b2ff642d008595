"""The fields of challenges and follows: a public id, a challenge's id, the challenger's colour
and an answer's action (docs/protocol.md#challenges)."""

from __future__ import annotations

from typing import Any

from relay.core.challenges import ACTIONS, COLOURS, ChallengeAction, Colour
from relay.core.errors import RelayError
from relay.core.moderation import PUBLIC_ID
from relay.core.patterns import CHALLENGE_ID

__all__ = ["action_field", "challenge_id_field", "colour_field", "public_id_field"]


def public_id_field(body: dict[str, Any], key: str) -> str:
    """Returns a public id (12 characters, as leaderboards show it), or raises
    request/invalid."""
    value = body.get(key)
    if isinstance(value, str) and PUBLIC_ID.fullmatch(value):
        return value
    raise RelayError(
        "request/invalid",
        f"The field {key!r} must be a player's public id (12 characters, as leaderboards and "
        f"GET /v1/matches/{{id}} 'players' show it), not {value!r}.",
    )


def challenge_id_field(body: dict[str, Any]) -> str:
    """Returns a challenge's id, or raises request/invalid."""
    value = body.get("id")
    if isinstance(value, str) and CHALLENGE_ID.fullmatch(value):
        return value
    raise RelayError(
        "request/invalid",
        f"The field 'id' must be a challenge's id (24 characters), not {value!r}.",
    )


def colour_field(body: dict[str, Any]) -> Colour:
    """Returns the challenger's colour ('random' when left out), or raises request/invalid."""
    value = body.get("colour", "random")
    if value in COLOURS:
        return value  # type: ignore[no-any-return]
    raise RelayError(
        "request/invalid",
        f"The field 'colour' must be one of {list(COLOURS)} (the challenger's: who moves "
        f"first), not {value!r}.",
    )


def action_field(body: dict[str, Any]) -> ChallengeAction:
    """Returns an answer's action, or raises request/invalid."""
    value = body.get("action")
    if value in ACTIONS:
        return value  # type: ignore[no-any-return]
    raise RelayError(
        "request/invalid", f"The field 'action' must be one of {list(ACTIONS)}, not {value!r}."
    )
