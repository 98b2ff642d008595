"""A store's one wait (Store.wait) read as the events alone, as most store tests check it."""

from __future__ import annotations

from relay import Store
from relay.core.model import Event


async def waited(store: Store, match: str, after: int, timeout: float) -> list[Event]:
    """Returns the events Store.wait returns: those above after once there are any, or []
    after timeout."""
    return (await store.wait(match, after, timeout)).events
