"""The schemas of challenges (relay.api.challenges): a challenge made and answered, a key's
challenges both ways, the ids it follows and its recent opponents."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import DISPLAY_NAME, IDENTIFIER, NULL, PUBLIC_ID, ref
from relay.core import challenges as rules
from relay.core.patterns import CHALLENGE_ID_TEXT, anchored

__all__ = ["REPLIES", "SCHEMAS"]

_CHALLENGE_ID = {
    "type": "string",
    "pattern": anchored(CHALLENGE_ID_TEXT),
    "description": "A challenge's id: its challenged key's public id and 12 random characters.",
}
_WHO = {
    "type": "object",
    "required": ["id", "name"],
    "properties": {"id": PUBLIC_ID, "name": {"type": ["string", "null"]}},
}
_FIELDS = ["id", "from", "to", "game", "version", "time_control", "colour", "rated", "at",
           "until", "state", "match"]  # fmt: skip
_LIST = {"type": "array", "maxItems": rules.LISTED_MOST, "items": ref("Challenge")}
_FOLLOWED = {
    "type": "object",
    "required": ["id", "name", "at"],
    "properties": {"id": PUBLIC_ID, "name": {"type": ["string", "null"]}, "at": {"type": "number"}},
}

SCHEMAS: dict[str, Any] = {
    "ChallengeBody": {
        "type": "object",
        "required": ["to", "game"],
        "properties": {
            "to": PUBLIC_ID,
            "game": IDENTIFIER,
            "version": {"anyOf": [IDENTIFIER, {"const": ""}]},
            "time_control": {"anyOf": [ref("TimeControl"), NULL]},
            "colour": {
                "enum": ["first", "second", "random"],
                "description": "The challenger's: it moves first, second, or as a fair coin "
                "falls at the accept (the default).",
            },
            "rated": {
                "type": "boolean",
                "description": "Ask for a rated match (default false: never rated); only on a "
                "relay that rates the game.",
            },
            "name": DISPLAY_NAME,
        },
    },
    "ChallengeAnswerBody": {
        "type": "object",
        "required": ["id", "action"],
        "properties": {
            "id": _CHALLENGE_ID,
            "action": {"enum": ["accept", "decline", "withdraw"]},
            "name": DISPLAY_NAME,
            "block": {
                "type": "boolean",
                "description": "With a decline: block the challenger too (never paired again, "
                "its challenges refused), as POST /v1/player/blocks does (default false).",
            },
        },
    },
    "Challenge": {
        "type": "object",
        "required": [*_FIELDS],
        "properties": {
            "id": _CHALLENGE_ID,
            "from": _WHO,
            "to": _WHO,
            "game": IDENTIFIER,
            "version": {"type": "string"},
            "time_control": {"anyOf": [ref("TimeControl"), NULL]},
            "colour": {"enum": ["first", "second", "random"]},
            "rated": {"type": "boolean"},
            "at": {"type": "number"},
            "until": {"type": "number", "description": "When it lapses while open."},
            "state": {"enum": ["open", "accepted", "declined", "withdrawn", "lapsed"]},
            "match": {
                "type": ["string", "null"],
                "description": "The match an accept made (both keys seated), else null.",
            },
        },
    },
    "Challenges": {
        "type": "object",
        "required": ["version", "incoming", "outgoing"],
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "incoming": _LIST,
            "outgoing": _LIST,
        },
    },
    "FollowBody": {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": PUBLIC_ID,
            "follow": {"type": "boolean", "description": "false: stop following (default true)."},
            "name": DISPLAY_NAME,
        },
    },
    "Follows": {
        "type": "object",
        "required": ["follows"],
        "properties": {
            "follows": {"type": "array", "maxItems": rules.FOLLOWS_MOST, "items": _FOLLOWED}
        },
    },
    "Opponents": {
        "type": "object",
        "required": ["opponents"],
        "properties": {
            "opponents": {
                "type": "array",
                "maxItems": rules.OPPONENTS_MOST,
                "items": {
                    "type": "object",
                    "required": ["id", "name", "game", "match", "at"],
                    "properties": {
                        "id": PUBLIC_ID,
                        "name": {"type": ["string", "null"]},
                        "game": IDENTIFIER,
                        "match": {"type": "string"},
                        "at": {"type": "number"},
                    },
                },
            }
        },
    },
}

REPLIES = {
    "Challenge": "The challenge, as it stands.",
    "Challenges": "The key's challenges: made to it, and made by it.",
    "Follows": "The ids the key follows, newest first.",
    "Opponents": "The key's recent opponents, newest first.",
}
"""What a successful answer of each challenge reply says."""
