"""The pieces several areas' schemas share: a reference, null, a seat, an event number, the
identifiers (their patterns from relay.core.patterns), clocks' seconds, a display name and text
by the rules of chat, an ended event's verdict fields and a rating's change."""

from __future__ import annotations

from typing import Any

from relay.api.fields.request import MAX_WHOLE
from relay.core.patterns import KEY_TEXT, NAME_TEXT, PUBLIC_ID_TEXT, anchored
from relay.core.table import NAME_MOST
from relay.core.verdicts import DETAIL_MAX

__all__ = [
    "AFTER",
    "DISPLAY_NAME",
    "IDENTIFIER",
    "LEFT",
    "LEFTS",
    "NO_CONTROL",
    "NULL",
    "PUBLIC_ID",
    "RATING_CHANGE",
    "SEAT",
    "SECONDS_LEFT",
    "TEXT",
    "TOKEN",
    "VERDICT",
    "ref",
]


def ref(name: str) -> dict[str, str]:
    """Returns a reference to the schema of that name."""
    return {"$ref": f"#/components/schemas/{name}"}


NULL = {"type": "null"}
SEAT = {"type": "integer", "enum": [0, 1]}
AFTER = {"type": "integer", "minimum": 0, "maximum": MAX_WHOLE}
"""An event number, a table version or a chat line's number (relay.api.fields.request)."""

IDENTIFIER = {"type": "string", "pattern": anchored(NAME_TEXT)}
"""A game key, a version or a room name."""

TOKEN = {
    "type": "string",
    "pattern": anchored(KEY_TEXT),
    "description": "The seeker's own seat token, drawn at random: a retried seek is answered "
    "the same seat.",
}

PUBLIC_ID = {
    "type": "string",
    "pattern": anchored(PUBLIC_ID_TEXT),
    "description": "A player key's public id: what leaderboards, match summaries and reports "
    "show of a key (it reveals nothing usable).",
}

LEFT = {"type": "number", "minimum": 0, "description": "Seconds left (3 decimals)."}
LEFTS = {"type": "array", "items": LEFT, "minItems": 2, "maxItems": 2}
SECONDS_LEFT = {"type": ["number", "null"], "minimum": 0}

NO_CONTROL = "\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069"
"""What no text a player writes may hold: a control character, a bidirectional override or
isolate (relay.core.text_policy refuses these and more)."""

TEXT = f"^[^{NO_CONTROL}]*[^\\s{NO_CONTROL}][^{NO_CONTROL}]*$"
"""A name or chat text: no control character, no bidirectional override or isolate, and
something besides white space (the relay trims it)."""

DISPLAY_NAME = {
    "anyOf": [
        {"type": "string", "minLength": 1, "maxLength": NAME_MOST, "pattern": TEXT},
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

VERDICT: dict[str, Any] = {
    "winner": {
        "enum": [0, 1, None],
        "description": "Only when a referee decided: the winning seat, null for a draw.",
    },
    "at": {
        "type": "integer",
        "description": "The event disputed, at fault, or ending the game.",
    },
    "detail": {
        "type": "string",
        "maxLength": DETAIL_MAX,
        "description": "The referee's reason, or the disputing client's.",
    },
}
"""The fields an ended event has after its seat when it settles a dispute or a verdict."""

RATING_CHANGE = {
    "type": "object",
    "required": ["before", "after"],
    "properties": {"before": {"type": "number"}, "after": {"type": "number"}},
    "description": "Once the match is rated: the key's rating before and after it.",
}
