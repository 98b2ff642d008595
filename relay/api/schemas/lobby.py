"""The schemas of the lobby and of the games a relay hosts."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import DISPLAY_NAME, NULL, ref
from relay.core.games import GAME_NAME
from relay.core.patterns import anchored

__all__ = ["REPLIES", "SCHEMAS"]

SCHEMAS: dict[str, Any] = {
    "LobbyEntry": {
        "type": "object",
        "required": [
            "match",
            "game",
            "version",
            "room",
            "status",
            "moves",
            "since",
            "time_control",
        ],
        "properties": {
            "match": {"type": "string"},
            "game": {"type": "string"},
            "version": {"type": "string"},
            "room": {"type": ["string", "null"]},
            "status": {"type": "string", "enum": ["waiting", "playing", "ending", "finished"]},
            "moves": {"type": "integer", "minimum": 0},
            "since": {"type": "number"},
            "time_control": {"anyOf": [ref("TimeControl"), NULL]},
            "rating": {
                "type": ["string", "null"],
                "description": "Open entries: the waiting seeker's rating in the game as shown "
                "('1500?', '1623'); null without a player key, or with --no-ratings.",
            },
            "names": {"type": "array", "items": DISPLAY_NAME, "minItems": 2, "maxItems": 2},
        },
    },
    "Lobby": {
        "type": "object",
        "required": ["game", "version", "open", "live", "recent"],
        "properties": {
            "game": {"type": "string"},
            "version": {"type": "integer", "minimum": 0},
            "open": {"type": "array", "items": ref("LobbyEntry")},
            "live": {"type": "array", "items": ref("LobbyEntry")},
            "recent": {"type": "array", "items": ref("LobbyEntry")},
        },
    },
    "Game": {
        "type": "object",
        "required": [
            "name",
            "title",
            "summary",
            "page",
            "view",
            "computer",
            "referee",
            "refereed",
        ],
        "properties": {
            "name": {
                "type": "string",
                "pattern": anchored(GAME_NAME.pattern),
                "description": "The game key its seeks name.",
            },
            "title": {"type": "string"},
            "summary": {"type": "string"},
            "page": {
                "type": "string",
                "description": "Its page, relative to the relay's root "
                "(where the relay serves its pages): 'connect4.html'.",
            },
            "view": {
                "type": ["string", "null"],
                "description": "Its page module that draws "
                "its board for the shared pages (the replay), relative to the relay's "
                "root; null when it has none.",
            },
            "computer": {
                "type": "boolean",
                "description": "Whether its page offers a game "
                "against the computer (<page>#computer).",
            },
            "referee": {"type": "boolean", "description": "Whether its package ships a referee."},
            "refereed": {
                "type": "boolean",
                "description": "Whether this relay runs its referee (--referee): then every "
                "game-ending move is checked against the rules, and a finished match's result "
                "is the referee's.",
            },
        },
    },
    "Games": {
        "type": "object",
        "required": ["games"],
        "properties": {"games": {"type": "array", "items": ref("Game")}},
    },
}

REPLIES = {
    "Lobby": "The game's lobby at its version.",
    "Games": "Every game hosted, by name.",
}
"""What a successful answer of each reply schema says."""
