"""The schemas of a match: its time control, its events, its summary and its rematch."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import (
    DISPLAY_NAME,
    LEFT,
    LEFTS,
    NULL,
    PUBLIC_ID,
    RATING_CHANGE,
    SEAT,
    VERDICT,
    ref,
)
from relay.core.clock import BASE, INCREMENT, PER_MOVE
from relay.core.reasons import ENDED_REASONS

__all__ = ["MATCH_FIELDS", "REPLIES", "SCHEMAS"]

MATCH_FIELDS: dict[str, Any] = {
    "match": {"type": "string"},
    "game": {"type": "string"},
    "version": {"type": "string"},
    "room": {"type": ["string", "null"]},
    "status": {
        "type": "string",
        "enum": ["waiting", "playing", "ending", "finished", "expired"],
    },
    "turn": {"type": ["integer", "null"], "enum": [0, 1, None]},
    "first": {"type": ["integer", "null"], "enum": [0, 1, None]},
    "last": {"type": "integer", "minimum": 0},
    "time_control": {"anyOf": [ref("TimeControl"), NULL]},
    "left": {"anyOf": [LEFTS, NULL]},
    "names": {"type": "array", "items": DISPLAY_NAME, "minItems": 2, "maxItems": 2},
}
"""The fields a match's summary and a player's list of its matches share."""

SCHEMAS: dict[str, Any] = {
    "TimeControl": {
        "description": "Kept by the relay; seekers of different controls never meet.",
        "oneOf": [
            {
                "type": "object",
                "required": ["kind", "base", "increment"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"const": "fischer"},
                    "base": {"type": "integer", "minimum": BASE[0], "maximum": BASE[1]},
                    "increment": {
                        "type": "integer",
                        "minimum": INCREMENT[0],
                        "maximum": INCREMENT[1],
                    },
                },
            },
            {
                "type": "object",
                "required": ["kind", "per_move"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"const": "deadline"},
                    "per_move": {
                        "type": "integer",
                        "minimum": PER_MOVE[0],
                        "maximum": PER_MOVE[1],
                    },
                },
            },
        ],
    },
    "Event": {
        "oneOf": [
            {
                "type": "object",
                "required": ["seq", "type", "first"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "started"},
                    "first": SEAT,
                    "time_control": ref("TimeControl"),
                    "left": LEFTS,
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "seat", "move", "end"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "move"},
                    "seat": SEAT,
                    "move": {"type": "string"},
                    "end": {"type": "boolean"},
                    "left": LEFT,
                    "claim": {"type": "string", "enum": ["win", "draw", "loss"]},
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "seat"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "pass"},
                    "seat": SEAT,
                    "left": LEFT,
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "reason", "seat"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "ended"},
                    "reason": {
                        "type": "string",
                        "enum": list(ENDED_REASONS),
                    },
                    "seat": SEAT,
                    **VERDICT,
                },
            },
            {
                "type": "object",
                "required": ["seq", "type", "seat", "count"],
                "properties": {
                    "seq": {"type": "integer"},
                    "type": {"const": "undo"},
                    "seat": SEAT,
                    "count": {"type": "integer", "enum": [1, 2]},
                    "left": {
                        "type": "array",
                        "items": {"type": "number"},
                        "minItems": 2,
                        "maxItems": 2,
                    },
                },
                "description": "An accepted takeback: the last `count` moves and passes are "
                "undone and `seat` (the asker) has the turn.",
            },
        ]
    },
    "Events": {
        "type": "object",
        "required": ["events"],
        "properties": {"events": {"type": "array", "items": ref("Event")}, "table": ref("Table")},
    },
    "MatchInfo": {
        "type": "object",
        "required": ["match", "game", "version", "room", "status", "turn", "first", "last"],
        "properties": {
            **MATCH_FIELDS,
            "rated": {
                "enum": [True, False, "pending", "voided"],
                "description": "Whether the match was rated ('pending': ended, its rating not "
                "yet written; 'voided': the host took its rating back).",
            },
            "players": {
                "type": "array",
                "items": {"anyOf": [PUBLIC_ID, NULL]},
                "minItems": 2,
                "maxItems": 2,
                "description": "Each seat's player key's public id (null: it sat without one).",
            },
            "ratings": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": RATING_CHANGE,
                "description": "Once rated: each seat's rating before and after the match.",
            },
        },
    },
    "RematchBody": {
        "type": "object",
        "required": ["offer"],
        "properties": {"offer": {"type": "boolean"}},
    },
    "Rematch": {
        "type": "object",
        "required": ["version", "state", "offers", "by", "match", "first"],
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "state": {
                "type": "string",
                "enum": ["none", "offered", "accepted", "declined", "lapsed"],
            },
            "offers": {"type": "array", "items": {"type": "boolean"}, "minItems": 2},
            "by": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "match": {"type": ["string", "null"]},
            "first": {"type": ["integer", "null"], "enum": [0, 1, None]},
        },
    },
}

REPLIES = {
    "MatchInfo": "The match.",
    "Events": "Events, possibly none.",
    "Rematch": "The rematch: its version, state, offers and, once accepted, the new match.",
}
"""What a successful answer of each reply schema says."""
