"""The schemas of the table around a match (relay.api.table): names, presence, the last offer,
the chat, and the bodies and answers of offers, answers and chat lines."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import AFTER, DISPLAY_NAME, SEAT, SECONDS_LEFT, TEXT, ref
from relay.core.table import CHAT_MOST

__all__ = ["REPLIES", "SCHEMAS"]

SCHEMAS: dict[str, Any] = {
    "Table": {
        "type": "object",
        "required": ["version", "names", "presence", "offer", "chat", "claim_in", "claim_after"],
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "names": {"type": "array", "items": DISPLAY_NAME, "minItems": 2, "maxItems": 2},
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
                        "abandon_in": SECONDS_LEFT,
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
                            "by": SEAT,
                            "at": AFTER,
                            "state": {
                                "enum": ["offered", "accepted", "declined", "withdrawn", "lapsed"]
                            },
                            "count": {"type": ["integer", "null"], "enum": [1, 2, None]},
                        },
                    },
                    {"type": "null"},
                ]
            },
            "chat": {"type": "array", "items": ref("ChatEntry")},
            "claim_in": SECONDS_LEFT,
            "claim_after": SECONDS_LEFT,
        },
    },
    "ChatEntry": {
        "type": "object",
        "required": ["n", "seat", "text", "at", "time"],
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "seat": SEAT,
            "text": {"type": "string", "minLength": 1, "maxLength": CHAT_MOST},
            "at": AFTER,
            "time": {"type": "number"},
        },
    },
    "OfferBody": {
        "type": "object",
        "required": ["kind", "after"],
        "properties": {"kind": {"enum": ["draw", "takeback"]}, "after": AFTER},
    },
    "AnswerBody": {
        "oneOf": [
            {
                "type": "object",
                "required": ["accept", "after"],
                "properties": {"accept": {"const": True}, "after": AFTER},
            },
            {"type": "object", "required": ["accept"], "properties": {"accept": {"const": False}}},
        ]
    },
    "Answered": {
        "type": "object",
        "required": ["seq", "table"],
        "properties": {
            "seq": {"type": ["integer", "null"], "minimum": 1},
            "table": ref("Table"),
        },
    },
    "ChatBody": {
        "type": "object",
        "required": ["text"],
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": CHAT_MOST, "pattern": TEXT}
        },
    },
    "ChatLine": {
        "type": "object",
        "required": ["n"],
        "properties": {"n": {"type": "integer", "minimum": 1}},
    },
}
"""The table's schemas, by name."""

REPLIES = {
    "Table": "The table: names, presence, the last offer, the chat, the claim time.",
    "Answered": "Answered: the event an acceptance appended (null for a decline), the table.",
    "ChatLine": "Said (or the same line said just before): its number in the chat.",
}
"""What a successful answer of each table reply says."""
