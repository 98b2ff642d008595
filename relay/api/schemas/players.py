"""The schemas of a player's seat and key: a seek and its ticket, a key's matches, and the turn
notices a contact handle is sent."""

from __future__ import annotations

from typing import Any

from relay.api.schemas import challenges
from relay.api.schemas.common import (
    DISPLAY_NAME,
    IDENTIFIER,
    NULL,
    PUBLIC_ID,
    RATING_CHANGE,
    SEAT,
    TOKEN,
    VERDICT,
    ref,
)
from relay.api.schemas.matches import MATCH_FIELDS
from relay.core.patterns import anchored
from relay.core.players import CONTACT, CONTACT_MOST, LISTED
from relay.core.rated import MOST_RATING

__all__ = ["REPLIES", "SCHEMAS"]

_BOUND = {"type": "integer", "minimum": 0, "maximum": MOST_RATING}

SCHEMAS: dict[str, Any] = {
    "SeekBody": {
        "type": "object",
        "required": ["game"],
        "properties": {
            "game": IDENTIFIER,
            # null, like a missing field, means none.
            "version": {"anyOf": [IDENTIFIER, {"const": ""}, NULL]},
            "room": {"anyOf": [IDENTIFIER, NULL]},
            "token": {"anyOf": [TOKEN, NULL]},
            "public": {"type": "boolean", "description": "List the seek in the lobby."},
            "time_control": {"anyOf": [ref("TimeControl"), NULL]},
            "player": {
                "anyOf": [TOKEN, NULL],
                "description": "The seeker's player key: a second key to the seat, which "
                "lists it under GET /v1/player/matches; never paired with itself.",
            },
            "contact": {
                "anyOf": [{"type": "string", "pattern": anchored(CONTACT.pattern)}, NULL],
                "description": "An opaque handle the relay hands to its turn notices in "
                "matches with a per-move deadline; never shown in any answer.",
            },
            "name": DISPLAY_NAME,
            "rating_range": {
                "description": "Opponents within a rating range (needs 'player', takes no "
                "'room'): 'min' and/or 'max' (min at most max), or 'within' points of your own "
                "rating (docs/ratings.md); null, as absent, for any opponent.",
                "oneOf": [
                    NULL,
                    {
                        "type": "object",
                        "minProperties": 1,
                        "additionalProperties": False,
                        "properties": {"min": _BOUND, "max": _BOUND},
                    },
                    {
                        "type": "object",
                        "required": ["within"],
                        "additionalProperties": False,
                        "properties": {"within": {**_BOUND, "minimum": 1}},
                    },
                ],
            },
        },
    },
    "Ticket": {
        "type": "object",
        "required": ["match", "seat", "token"],
        "properties": {
            "match": {"type": "string"},
            "seat": SEAT,
            "token": {"type": "string", "description": "Secret; send as Bearer token."},
        },
    },
    "TurnDelivery": {
        "type": "object",
        "required": ["id", "contact", "turns"],
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            "contact": {"type": "string", "minLength": 1, "maxLength": CONTACT_MOST},
            "turns": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["match", "game", "seat", "seq", "due"],
                    "properties": {
                        "match": {"type": "string"},
                        "game": IDENTIFIER,
                        "seat": SEAT,
                        "seq": {"type": "integer", "minimum": 1},
                        "due": {
                            "type": "number",
                            "description": "When the turn's time runs out (Unix seconds).",
                        },
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
    "PlayerMatch": {
        "type": "object",
        "required": [
            "match",
            "game",
            "version",
            "room",
            "seat",
            "status",
            "turn",
            "your_turn",
            "time_control",
            "left",
            "last",
            "first",
            "names",
            "players",
        ],
        "properties": {
            **MATCH_FIELDS,
            "seat": SEAT,
            "players": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": {"anyOf": [PUBLIC_ID, NULL]},
                "description": "Each seat's public id (null: taken without a player key), "
                "as GET /v1/matches/{id} names them: the partner's is the one to challenge.",
            },
            "your_turn": {"type": "boolean"},
            "result": {
                "type": "object",
                "required": ["reason", "seat"],
                "properties": {
                    "reason": {"type": "string"},
                    "seat": SEAT,
                    **VERDICT,
                    "claim": {
                        "enum": ["win", "draw", "loss"],
                        "description": "An agreed or unconfirmed end's: what the game-ending "
                        "move's mover claimed it ended in (absent: no claim).",
                    },
                },
                "description": "Once finished: the ended event's reason and seat (and its "
                "winner, at and detail when it has them; an agreed or unconfirmed end's "
                "claim).",
            },
            "rating": RATING_CHANGE,
        },
    },
    "PlayerMatches": {
        "type": "object",
        "required": ["matches"],
        "properties": {
            "matches": {"type": "array", "maxItems": LISTED, "items": ref("PlayerMatch")}
        },
    },
    **challenges.SCHEMAS,
}

REPLIES = {
    "Ticket": "Seated.",
    "PlayerMatches": "The key's matches ([] for a key the relay does not know).",
    **challenges.REPLIES,
}
"""What a successful answer of each reply schema says."""
