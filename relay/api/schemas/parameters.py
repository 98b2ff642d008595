"""The schemas of the path and query parameters the routes read."""

from __future__ import annotations

from typing import Any

from relay.api.schemas.common import AFTER, IDENTIFIER
from relay.core.standings import BOARD_LIMIT

__all__ = ["GAME", "MATCH", "QUERY", "REQUIRED_QUERY"]

MATCH = {
    "name": "match",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
}
"""The {match} path parameter."""

GAME = {**MATCH, "name": "game", "schema": IDENTIFIER}
"""The {game} path parameter."""

SECONDS = {
    "type": "string",
    "pattern": r"^[0-9]{1,9}(\.[0-9]{0,6})?$",
    "description": "Seconds, in decimal digits with at most 6 after the point ('2', '0.5').",
}
"""A duration, as relay.api.fields.request.query_seconds reads it."""

QUERY: dict[str, dict[str, Any]] = {
    "after": AFTER,
    "wait": SECONDS,
    "game": IDENTIFIER,
    "limit": {"type": "integer", "minimum": 1, "maximum": BOARD_LIMIT},
    "table": {**AFTER, "description": "The table version the poller has: the answer also "
              "carries the table (key 'table') when its version is above it, and a table "
              "change ends the hold."},
    "chat": {**AFTER, "description": "The number of the last chat line the reader has: "
             "the table carries the lines above it."},
}  # fmt: skip
"""The schema of each query parameter a route may read."""

REQUIRED_QUERY = frozenset({("lobby", "game")})
"""The query parameters a route cannot do without, by operation (the lobby's game)."""
