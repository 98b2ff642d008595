"""The players' subscriptions as the dispatcher reads them (relay.push.dispatch.Subscriptions):
the store's push part (relay.store.push), each one read back through Subscription.from_json,
so that one kept before a rule tightened, or spoiled in the store, is skipped, not pushed to."""

from __future__ import annotations

import time

import orjson

from relay.push.subscription import Subscription, SubscriptionError
from relay.store.push import PushSubscriptions

__all__ = ["StoredSubscriptions"]


class StoredSubscriptions:
    """A store's push part, read and written as the dispatcher needs it."""

    def __init__(self, part: PushSubscriptions, *, loopback_http: bool = False) -> None:
        self.part = part
        self.loopback_http = loopback_http

    async def of(self, player: str) -> list[Subscription]:
        """Returns the player's subscriptions that still read as good ones, newest first."""
        found = []
        for data in await self.part.of(player, time.time()):
            try:
                value = orjson.loads(data)
                found.append(Subscription.from_json(value, loopback_http=self.loopback_http))
            except (orjson.JSONDecodeError, SubscriptionError):
                continue
        return found

    async def drop(self, player: str, endpoint: str) -> None:
        """Forgets the player's subscription of that endpoint (its push service said gone)."""
        await self.part.drop(player, endpoint)
