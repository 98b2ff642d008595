"""Push subscriptions in the Redis store (relay.store.push).

Keys, under the prefix P, for the player key of digest D (one slot: a Cluster routes each
call to one node):
- ``P{u:D}push``   hash: endpoint -> the subscription's data
- ``P{u:D}pushed`` sorted set: endpoint -> when its page last renewed it (ms)

push_keep.lua keeps one and drops the key's least recently renewed past the cap, in one
step; both keys expire KEEP after the last renewal, and a subscription older than KEEP is
not answered (and is dropped when read)."""

from __future__ import annotations

from relay.store.push import KEEP, SUBSCRIPTIONS_PER_PLAYER
from relay.store.redis.link import Link

__all__ = ["RedisPush"]


class RedisPush:
    """The Redis store's push subscriptions."""

    def __init__(self, store: Link) -> None:
        self.store = store

    def _keys(self, player: str) -> list[str]:
        tagged = f"{self.store.prefix}{{u:{player}}}push"
        return [tagged, tagged + "ed"]

    async def keep(self, player: str, endpoint: str, data: bytes, now: float) -> int:
        """Keeps a subscription (PushSubscriptions.keep)."""
        args = [endpoint, data, round(now * 1000), SUBSCRIPTIONS_PER_PLAYER, int(KEEP)]
        return int(await self.store.call("PUSH_KEEP", self._keys(player), args))

    async def of(self, player: str, now: float) -> list[bytes]:
        """Returns a player's subscriptions, newest first (PushSubscriptions.of)."""
        client = await self.store.client()
        guard = self.store.guard
        kept, renewed = self._keys(player)
        ranked = await guard(client.zrange(renewed, 0, -1, desc=True, withscores=True))
        if not ranked:
            return []
        oldest = (now - KEEP) * 1000
        fresh = [endpoint for endpoint, score in ranked if score > oldest]
        stale = [endpoint for endpoint, score in ranked if score <= oldest]
        if stale:
            await guard(client.zrem(renewed, *stale))
            await guard(client.hdel(kept, *stale))
        if not fresh:
            return []
        found = await guard(client.hmget(kept, fresh))
        return [bytes(data) for data in found if data is not None]

    async def drop(self, player: str, endpoint: str) -> bool:
        """Forgets a subscription (PushSubscriptions.drop)."""
        client = await self.store.client()
        guard = self.store.guard
        kept, renewed = self._keys(player)
        await guard(client.zrem(renewed, endpoint))
        return bool(int(await guard(client.hdel(kept, endpoint))))
