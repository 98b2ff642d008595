"""A store's one wait (Matches.wait) read as the events alone, as most store tests check it."""

from __future__ import annotations

from relay import Store
from relay.core.model import Event


async def waited(store: Store, match: str, after: int, timeout: float) -> list[Event]:
    """Returns the events Matches.wait returns: those above after once there are any, or []
    after timeout."""
    return (await store.matches.wait(match, after, timeout)).events
