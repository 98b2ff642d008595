"""The schemas of ratings: a key's rating in each game with its history, and a game's
leaderboard."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import DISPLAY_NAME, IDENTIFIER, ref
from relay.core.standings import BOARD_LIMIT, HISTORY

__all__ = ["REPLIES", "SCHEMAS"]

_RATING = {"type": "number", "minimum": 0}

SCHEMAS: dict[str, Any] = {
    "RatingEntry": {
        "type": "object",
        "required": ["match", "at", "score", "before", "after", "opponent"],
        "properties": {
            "match": {"type": "string"},
            "at": {"type": "number"},
            "score": {"type": "number", "enum": [0, 0.5, 1]},
            "before": _RATING,
            "after": _RATING,
            "opponent": {**_RATING, "description": "The opponent's rating before the match."},
        },
    },
    "GameRating": {
        "type": "object",
        "required": [
            "game",
            "rating",
            "deviation",
            "games",
            "provisional",
            "shown",
            "at",
            "history",
        ],
        "properties": {
            "game": IDENTIFIER,
            "rating": _RATING,
            "deviation": _RATING,
            "games": {"type": "integer", "minimum": 0},
            "provisional": {"type": "boolean"},
            "shown": {"type": "string", "description": "As players read it: '1500?', '1623'."},
            "at": {"type": ["number", "null"]},
            "history": {"type": "array", "maxItems": HISTORY, "items": ref("RatingEntry")},
        },
    },
    "PlayerRatings": {
        "type": "object",
        "required": ["ratings"],
        "properties": {"ratings": {"type": "array", "items": ref("GameRating")}},
    },
    "LeaderboardRow": {
        "type": "object",
        "required": ["rank", "id", "name", "rating", "deviation", "games", "shown"],
        "properties": {
            "rank": {"type": "integer", "minimum": 1},
            "id": {"type": "string", "description": "The key's public handle (docs/ratings.md)."},
            "name": DISPLAY_NAME,
            "rating": _RATING,
            "deviation": _RATING,
            "games": {"type": "integer", "minimum": 0},
            "shown": {"type": "string"},
        },
    },
    "Leaderboard": {
        "type": "object",
        "required": ["game", "players"],
        "properties": {
            "game": IDENTIFIER,
            "players": {
                "type": "array",
                "maxItems": BOARD_LIMIT,
                "items": ref("LeaderboardRow"),
            },
        },
    },
}

REPLIES = {
    "PlayerRatings": "The key's ratings ([] for a key the relay does not know, or with "
    "--no-ratings).",
    "Leaderboard": "The game's established ratings, best first ([] with --no-ratings).",
}
"""What a successful answer of each reply schema says."""
