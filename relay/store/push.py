"""The store's push part: the browsers each player key asked to be pushed to (Web Push
subscriptions, docs/web-push.md), on every relay process sharing the store.

The store keeps each subscription as opaque bytes (relay.push reads and checks them) under
its endpoint, per player key digest. A player keeps at most SUBSCRIPTIONS_PER_PLAYER: a new
browser past it replaces the one renewed longest ago. A subscription not renewed for KEEP
seconds (a page renews it each time it opens with notifications on) is forgotten, and so is
one the push service says is gone."""

from __future__ import annotations

from typing import Protocol

__all__ = ["KEEP", "SUBSCRIPTIONS_MOST", "SUBSCRIPTIONS_PER_PLAYER", "PushSubscriptions"]

SUBSCRIPTIONS_PER_PLAYER = 8
"""Browsers a player key is pushed to at most (a handful of devices)."""

KEEP = 60 * 86400.0
"""Seconds a subscription is kept after its page last renewed it: 60 days."""

SUBSCRIPTIONS_MOST = 100_000
"""Subscriptions the memory store keeps in all (past it, a new one is refused push/full;
a Redis store is bounded by the rate of adds and by KEEP)."""


class PushSubscriptions(Protocol):
    """A store's push subscriptions, per player key digest."""

    async def keep(self, player: str, endpoint: str, data: bytes, now: float) -> int:
        """Keeps the player's subscription of that endpoint (replacing one kept before, and
        renewing it), dropping the player's least recently renewed past
        SUBSCRIPTIONS_PER_PLAYER; returns how many the player has. The memory store raises
        push/full when it keeps SUBSCRIPTIONS_MOST in all."""

    async def of(self, player: str, now: float) -> list[bytes]:
        """Returns the player's subscriptions renewed within KEEP, newest first ([]: none)."""

    async def drop(self, player: str, endpoint: str) -> bool:
        """Forgets the player's subscription of that endpoint; returns whether it was kept."""
