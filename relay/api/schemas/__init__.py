"""Every schema of the OpenAPI document, each defined once, in a module for its area: errors,
players (seeks and a key's matches), matches (events, summaries, rematches), moves (a match's
writes), the table, the lobby and games, ratings, moderation, passkeys, Web Push and the
service's own; the parameters the routes read; and the pieces they share (common). The
patterns of identifiers come from relay.core.patterns, each bound and list from the core
module that keeps it.

relay.api.openapi builds the document from the route table and these."""

from __future__ import annotations

from typing import Any

from relay.api.schemas import (
    errors,
    lobby,
    matches,
    moderation,
    moves,
    passkeys,
    players,
    push,
    ratings,
    service,
    table,
)

__all__ = ["REPLIES", "SCHEMAS"]

_AREAS = (
    errors, players, matches, moves, table, lobby, ratings, moderation, passkeys, push, service,
)  # fmt: skip


def _merged(dicts: list[dict[str, Any]]) -> dict[str, Any]:
    """Returns the dicts as one; a name defined twice is an error."""
    merged: dict[str, Any] = {}
    for one in dicts:
        twice = merged.keys() & one.keys()
        if twice:
            raise ValueError(f"schemas defined twice: {sorted(twice)}")
        merged.update(one)
    return merged


SCHEMAS: dict[str, Any] = _merged([area.SCHEMAS for area in _AREAS])
"""Every schema, by name."""

REPLIES: dict[str, str] = _merged([area.REPLIES for area in _AREAS])
"""What a successful answer of each reply schema says."""
