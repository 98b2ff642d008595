"""The OpenAPI schemas of the table around a match (relay.api.table), merged into the
document by relay.api.openapi."""

from __future__ import annotations

from typing import Any

from relay.api.fields.request import MAX_WHOLE
from relay.core.table import CHAT_MOST, NAME_MOST

__all__ = ["NAME", "TABLE_REPLIES", "TABLE_SCHEMAS", "TEXT", "UNDO_EVENT"]

_SEAT = {"type": "integer", "enum": [0, 1]}

_NO_CONTROL = "\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069"
_TEXT = f"^[^{_NO_CONTROL}]*[^\\s{_NO_CONTROL}][^{_NO_CONTROL}]*$"
"""A name or chat text: no control character, no bidirectional override or isolate, and
something besides white space (the relay trims it)."""
TEXT = _TEXT
"""_TEXT, for the other schemas written by the rules of chat (a report's words)."""
_AFTER = {"type": "integer", "minimum": 0, "maximum": MAX_WHOLE}
_SECONDS_LEFT = {"type": ["number", "null"], "minimum": 0}

NAME = {
    "anyOf": [
        {"type": "string", "minLength": 1, "maxLength": NAME_MOST, "pattern": _TEXT},
        {"type": "null"},
    ],
    "description": f"A display name: 1 to {NAME_MOST} characters once trimmed, by Unicode's "
    "rules (docs/fair-play.md#clean-names): no control, format, invisible, bidirectional, tag, "
    "private-use, unassigned or noncharacter code point, at most 4 combining marks on a "
    "character, one script, one system of digits; one that looks like a name another player "
    "key showed in the last 30 days is refused 409 name/taken. Shown to the partner, "
    "spectators, the lobby and in records, always as text (null when the relay keeps no "
    "names).",
}

UNDO_EVENT = {
    "type": "object",
    "required": ["seq", "type", "seat", "count"],
    "properties": {
        "seq": {"type": "integer"},
        "type": {"const": "undo"},
        "seat": _SEAT,
        "count": {"type": "integer", "enum": [1, 2]},
        "left": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
    },
    "description": "An accepted takeback: the last `count` moves and passes are undone and "
    "`seat` (the asker) has the turn.",
}

TABLE_SCHEMAS: dict[str, Any] = {
    "Table": {
        "type": "object",
        "required": ["version", "names", "presence", "offer", "chat", "claim_in", "claim_after"],
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "names": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
            "presence": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": {
                    "type": "object",
                    "required": ["here"],
                    "properties": {
                        "here": {"type": "boolean"},
                        "since": {"type": "number"},
                        "abandon_in": _SECONDS_LEFT,
                    },
                },
            },
            "offer": {
                "anyOf": [
                    {
                        "type": "object",
                        "required": ["kind", "by", "at", "state", "count"],
                        "properties": {
                            "kind": {"enum": ["draw", "takeback"]},
                            "by": _SEAT,
                            "at": _AFTER,
                            "state": {
                                "enum": ["offered", "accepted", "declined", "withdrawn", "lapsed"]
                            },
                            "count": {"type": ["integer", "null"], "enum": [1, 2, None]},
                        },
                    },
                    {"type": "null"},
                ]
            },
            "chat": {"type": "array", "items": {"$ref": "#/components/schemas/ChatEntry"}},
            "claim_in": _SECONDS_LEFT,
            "claim_after": _SECONDS_LEFT,
        },
    },
    "ChatEntry": {
        "type": "object",
        "required": ["n", "seat", "text", "at", "time"],
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "seat": _SEAT,
            "text": {"type": "string", "minLength": 1, "maxLength": CHAT_MOST},
            "at": _AFTER,
            "time": {"type": "number"},
        },
    },
    "OfferBody": {
        "type": "object",
        "required": ["kind", "after"],
        "properties": {"kind": {"enum": ["draw", "takeback"]}, "after": _AFTER},
    },
    "AnswerBody": {
        "oneOf": [
            {
                "type": "object",
                "required": ["accept", "after"],
                "properties": {"accept": {"const": True}, "after": _AFTER},
            },
            {"type": "object", "required": ["accept"], "properties": {"accept": {"const": False}}},
        ]
    },
    "Answered": {
        "type": "object",
        "required": ["seq", "table"],
        "properties": {
            "seq": {"type": ["integer", "null"], "minimum": 1},
            "table": {"$ref": "#/components/schemas/Table"},
        },
    },
    "ChatBody": {
        "type": "object",
        "required": ["text"],
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": CHAT_MOST, "pattern": _TEXT}
        },
    },
    "ChatLine": {
        "type": "object",
        "required": ["n"],
        "properties": {"n": {"type": "integer", "minimum": 1}},
    },
}
"""The table's schemas, by name."""

TABLE_REPLIES = {
    "Table": "The table: names, presence, the last offer, the chat, the claim time.",
    "Answered": "Answered: the event an acceptance appended (null for a decline), the table.",
    "ChatLine": "Said (or the same line said just before): its number in the chat.",
}
"""What a successful answer of each table reply says."""
