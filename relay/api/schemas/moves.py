"""The schemas of a match's writes: a move, a pass or a claim (an event number), a confirm,
a resignation, a cancelled seek, and what each answers."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import AFTER, NO_CONTROL, ref
from relay.core.verdicts import DETAIL_MAX

__all__ = ["REPLIES", "SCHEMAS"]

SCHEMAS: dict[str, Any] = {
    "MoveBody": {
        "type": "object",
        "required": ["after", "move"],
        "properties": {
            "after": AFTER,
            "move": {"type": "string"},
            "end": {"type": "boolean"},
            "claim": {
                "type": "string",
                "enum": ["win", "draw", "loss"],
                "description": "With end: true only: what the game ended in for the mover, "
                "rated once the partner agrees (docs/ratings.md).",
            },
            "detail": {
                "type": ["string", "null"],
                "maxLength": DETAIL_MAX,
                "pattern": f"^[^{NO_CONTROL}]*$",
                "description": "With end: true only: how the game ended, in the game's words "
                '("three mills"), the detail of the agreed or unconfirmed end: at most 200 '
                "characters once trimmed, no control character, no bidirectional override or "
                "isolate (docs/protocol.md#game-over).",
            },
        },
        "allOf": [
            {
                "if": {"required": ["claim"]},
                "then": {"required": ["end"], "properties": {"end": {"const": True}}},
            },
            {
                "if": {"required": ["detail"], "properties": {"detail": {"type": "string"}}},
                "then": {"required": ["end"], "properties": {"end": {"const": True}}},
            },
        ],
    },
    "AfterBody": {"type": "object", "required": ["after"], "properties": {"after": AFTER}},
    "ConfirmBody": {
        "type": "object",
        "required": ["after"],
        "properties": {
            "after": AFTER,
            "agree": {"type": "boolean"},
            "reason": {
                "type": ["string", "null"],
                "maxLength": DETAIL_MAX,
                "pattern": f"^[^{NO_CONTROL}]*$",
                "description": "With agree: false, why the play is disputed, for the partner, "
                "the log and the record: at most 200 characters once trimmed, no control "
                "character, no bidirectional override or isolate (docs/protocol.md#verdicts).",
            },
        },
    },
    "AnyBody": {"type": "object"},
    "Seq": {
        "type": "object",
        "required": ["seq"],
        "properties": {"seq": {"type": "integer", "minimum": 1}},
    },
    "SeqEvents": {
        "type": "object",
        "required": ["seq"],
        "properties": {
            "seq": {"type": "integer", "minimum": 1},
            "events": {"type": "array", "items": ref("Event")},
            "table": ref("Table"),
        },
    },
    "Cancelled": {
        "type": "object",
        "required": ["cancelled"],
        "properties": {"cancelled": {"const": True}},
    },
}

REPLIES = {
    "SeqEvents": "Accepted: its event number, and with ?wait=S the events after it.",
    "Seq": "Accepted (or the same post accepted before): its event number.",
    "Cancelled": "Cancelled.",
}
"""What a successful answer of each reply schema says."""
