"""Push subscriptions in the memory store (relay.store.push)."""

from __future__ import annotations

from relay.core.errors import RelayError
from relay.store.push import KEEP, SUBSCRIPTIONS_MOST, SUBSCRIPTIONS_PER_PLAYER

__all__ = ["MemoryPush"]


class MemoryPush:
    """The memory store's push subscriptions."""

    SWEEP_EVERY = 256
    """Adds between two sweeps of every player's expired subscriptions."""

    def __init__(self) -> None:
        self._kept: dict[str, dict[str, tuple[float, bytes]]] = {}
        """A player key's digest -> endpoint -> (renewed at, data), oldest renewed first."""
        self._count = 0
        self._adds = 0

    async def keep(self, player: str, endpoint: str, data: bytes, now: float) -> int:
        """Keeps a subscription (PushSubscriptions.keep)."""
        self._adds += 1
        if self._adds % self.SWEEP_EVERY == 0:
            self._sweep(now)
        kept = self._kept.setdefault(player, {})
        for old in [old for old, (renewed, _) in kept.items() if renewed + KEEP <= now]:
            del kept[old]
            self._count -= 1
        if kept.pop(endpoint, None) is not None:
            self._count -= 1
        elif self._count >= SUBSCRIPTIONS_MOST:
            if not kept:
                del self._kept[player]
            raise RelayError("push/full")
        kept[endpoint] = (now, data)
        self._count += 1
        while len(kept) > SUBSCRIPTIONS_PER_PLAYER:
            del kept[next(iter(kept))]
            self._count -= 1
        return len(kept)

    async def of(self, player: str, now: float) -> list[bytes]:
        """Returns a player's subscriptions, newest first (PushSubscriptions.of)."""
        kept = self._kept.get(player)
        if not kept:
            return []
        return [data for renewed, data in reversed(kept.values()) if renewed + KEEP > now]

    async def drop(self, player: str, endpoint: str) -> bool:
        """Forgets a subscription (PushSubscriptions.drop)."""
        kept = self._kept.get(player)
        if kept is None or kept.pop(endpoint, None) is None:
            return False
        self._count -= 1
        if not kept:
            del self._kept[player]
        return True

    def _sweep(self, now: float) -> None:
        """Forgets every subscription not renewed within KEEP."""
        for player, kept in list(self._kept.items()):
            for endpoint, (renewed, _) in list(kept.items()):
                if renewed + KEEP <= now:
                    del kept[endpoint]
                    self._count -= 1
            if not kept:
                del self._kept[player]
