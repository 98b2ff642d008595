"""The schemas of moderation (relay.api.moderation): a player's reports, blocks and mutes, and
the host's bans, voided ratings and erased names."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import IDENTIFIER, PUBLIC_ID, TEXT
from relay.core.moderation import BAN_MOST_SECONDS, REPORT_ABOUT, REPORT_TEXT

__all__ = ["REPLIES", "SCHEMAS"]

_MATCH = {"type": "string", "minLength": 1, "maxLength": 64}
_ID_OR_NULL = {"anyOf": [PUBLIC_ID, {"type": "null"}]}
_TARGET = {
    "type": "string",
    "description": "A public id (or 'id:' and one), or an address range in CIDR form "
    "('203.0.113.0/24', '2001:db8::/32'; a lone address is its /32 or /128).",
}
_BAN = {
    "type": "object",
    "required": ["target", "until", "reason", "at"],
    "properties": {
        "target": _TARGET,
        "until": {"type": "number"},
        "reason": {"type": "string"},
        "at": {"type": "number"},
    },
}
_BLOCKED = {
    "type": "object",
    "required": ["id", "name", "kind", "at"],
    "properties": {
        "id": PUBLIC_ID,
        "name": {"type": ["string", "null"]},
        "kind": {"enum": ["block", "mute"]},
        "at": {"type": "number"},
    },
}
_SEAT_VOID = {
    "type": "object",
    "required": ["id", "before", "after", "now", "exact"],
    "properties": {
        "id": PUBLIC_ID,
        "before": {"type": "number"},
        "after": {"type": "number"},
        "now": {"type": "number"},
        "exact": {
            "type": "boolean",
            "description": "true: the match was the key's latest rated game there, and its "
            "whole rating is as before it; false: only the match's points were given back.",
        },
    },
}
_REPORT = {
    "type": "object",
    "required": [
        "n", "at", "match", "game", "about", "text", "reporter", "reported", "name", "chat",
    ],
    "properties": {
        "n": {"type": "integer", "minimum": 1},
        "at": {"type": "number"},
        "match": {"type": "string"},
        "game": {"type": "string"},
        "about": {"enum": list(REPORT_ABOUT)},
        "text": {"type": "string"},
        "reporter": _ID_OR_NULL,
        "reported": _ID_OR_NULL,
        "name": {"type": ["string", "null"]},
        "chat": {"type": "array", "items": {"type": "string"}},
    },
}  # fmt: skip

SCHEMAS: dict[str, Any] = {
    "ReportBody": {
        "type": "object",
        "required": ["about"],
        "properties": {
            "about": {"enum": list(REPORT_ABOUT)},
            "text": {
                "anyOf": [
                    {"const": ""},
                    {"type": "string", "minLength": 1, "maxLength": REPORT_TEXT, "pattern": TEXT},
                ],
                "description": "The reporter's own words, by the rules of chat (optional).",
            },
        },
    },
    "Reported": {
        "type": "object",
        "required": ["report"],
        "properties": {"report": {"type": "integer", "minimum": 1}},
    },
    "BlockBody": {
        "oneOf": [
            {
                "type": "object",
                "required": ["kind", "match"],
                "properties": {
                    "kind": {"enum": ["block", "mute"]},
                    "match": {**_MATCH, "description": "A match the key sat in."},
                },
            },
            {
                "type": "object",
                "required": ["kind", "id"],
                "properties": {
                    "kind": {"const": "none"},
                    "id": {**PUBLIC_ID, "description": "The public id to lift."},
                },
            },
        ],
    },
    "Blocks": {
        "type": "object",
        "required": ["blocks"],
        "properties": {"blocks": {"type": "array", "items": _BLOCKED}},
    },
    "BanBody": {
        "type": "object",
        "required": ["target", "seconds"],
        "properties": {
            "target": _TARGET,
            "seconds": {"type": "number", "minimum": 1, "maximum": BAN_MOST_SECONDS},
            "reason": {"type": "string", "maxLength": 200},
        },
    },
    "Ban": _BAN,
    "Bans": {
        "type": "object",
        "required": ["bans"],
        "properties": {"bans": {"type": "array", "items": _BAN}},
    },
    "TargetBody": {"type": "object", "required": ["target"], "properties": {"target": _TARGET}},
    "Unbanned": {
        "type": "object",
        "required": ["target", "lifted"],
        "properties": {"target": _TARGET, "lifted": {"type": "boolean"}},
    },
    "VoidBody": {
        "type": "object",
        "required": ["match"],
        "properties": {
            "match": _MATCH,
            "game": {**IDENTIFIER, "description": "Needed once the match is forgotten."},
        },
    },
    "Voided": {
        "type": "object",
        "required": ["match", "game", "state", "seats"],
        "properties": {
            "match": {"type": "string"},
            "game": {"type": "string"},
            "state": {"enum": ["voided", "already", "not_rated"]},
            "seats": {"type": "array", "items": _SEAT_VOID},
        },
    },
    "IdBody": {"type": "object", "required": ["id"], "properties": {"id": PUBLIC_ID}},
    "Erased": {
        "type": "object",
        "required": ["id", "matches", "lines", "ratings"],
        "properties": {
            "id": PUBLIC_ID,
            "matches": {"type": "integer", "minimum": 0},
            "lines": {"type": "integer", "minimum": 0},
            "ratings": {"type": "integer", "minimum": 0},
        },
    },
    "Reports": {
        "type": "object",
        "required": ["reports"],
        "properties": {"reports": {"type": "array", "items": _REPORT}},
    },
}
"""Moderation's schemas, by name."""

REPLIES = {
    "Reported": "Filed (or the same report filed before): its number.",
    "Blocks": "The key's blocks and mutes, newest first.",
    "Ban": "Banned (a ban of the same target is replaced).",
    "Bans": "The bans in force, soonest to end first.",
    "Unbanned": "Whether a ban was lifted.",
    "Voided": "What voiding did: each seat's rating before, in and after.",
    "Erased": "What was erased.",
    "Reports": "The newest reports, newest first.",
}
"""What a successful answer of each moderation reply says."""
