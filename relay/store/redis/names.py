"""Display names in the Redis store: which player key holds each name's look (its skeletons,
relay.core.text_policy), for a while after it was last used.

Each skeleton is a key of its own (its digest in its hash tag, so a cluster spreads them),
holding the digest of the player key that showed the name, with an expiry: name.lua binds or
checks one."""

from __future__ import annotations

import hashlib

from relay.core.model import hash_token
from relay.store.redis.link import Link

__all__ = ["RedisNames"]


class RedisNames:
    """The Redis store's bindings of display names to player keys."""

    def __init__(self, store: Link) -> None:
        self.store = store

    def _key(self, skeleton: str) -> str:
        tag = hashlib.sha256(skeleton.encode("utf-8", "surrogatepass")).hexdigest()[:24]
        return f"{self.store.prefix}{{n:{tag}}}"

    async def claim(self, skeletons: tuple[str, ...], player: str | None, now: float) -> bool:
        """Binds the skeletons to the player key for name_hold, or checks them without one;
        returns False when another key holds one (the skeletons before it stay bound)."""
        digest = "" if player is None else hash_token(player)
        hold = str(max(1, round(self.store.settings.name_hold * 1000)))
        for skeleton in skeletons:
            bound = await self.store.call("NAME", [self._key(skeleton)], [digest, hold])
            if not int(bound):
                return False
        return True

    async def withhold(self, skeleton: str, holder: str) -> None:
        """Binds a skeleton to a holder that is no key (an erased name's) for name_hold."""
        client = await self.store.client()
        hold = max(1, round(self.store.settings.name_hold * 1000))
        await self.store.guard(client.set(self._key(skeleton), holder, px=hold))
