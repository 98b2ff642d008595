"""The Redis store: matches shared by every relay process on every box, durable with AOF.

Each change to a match is one Lua script on one slot (see `relay/store/redis/lua/` and the key
layout in `relay.store.redis.keys`), so two relay processes never pair one seeker twice, never
accept two moves for one turn and never give two events one number. The calls made in one
event-loop turn go to Redis as one pipeline (`relay.store.redis.batch`). The store is made of
the parts the Store protocol names: matches (relay.store.redis.matches, with seeks), tables,
lobbies, rematches, players and hooks, its moderation and passkeys."""

from __future__ import annotations

import redis.asyncio as aioredis

from relay.core.model import StoreSettings
from relay.store.base import Immediate
from relay.store.redis.challenges import RedisChallenges
from relay.store.redis.connection import DEFAULT_PREFIX, SENTINEL_SCHEME, Connection, sentinel_url
from relay.store.redis.hooks import RedisHooks
from relay.store.redis.key_lists import RedisKeyLists
from relay.store.redis.lobby import RedisLobbies
from relay.store.redis.matches import RedisMatches
from relay.store.redis.moderation import RedisModeration
from relay.store.redis.names import RedisNames
from relay.store.redis.passkeys import RedisPasskeys
from relay.store.redis.players import RedisPlayers
from relay.store.redis.push import RedisPush
from relay.store.redis.ratings import RedisRatings
from relay.store.redis.refusals import UNAVAILABLE
from relay.store.redis.rematch import RedisRematches
from relay.store.redis.table import RedisTables

__all__ = [
    "DEFAULT_PREFIX",
    "SENTINEL_SCHEME",
    "UNAVAILABLE",
    "RedisStore",
    "open_url",
    "sentinel_url",
]


class RedisStore:
    """Keeps matches in Redis: any relay process sharing it may answer any request.

    Its way to Redis is `link` (relay.store.redis.connection); its parts are the Store
    protocol's, each in a module of its own."""

    immediate: Immediate | None = None
    """Every call waits on Redis: endpoints run as tasks (see Store.immediate)."""

    def __init__(
        self,
        client: aioredis.Redis | None = None,
        settings: StoreSettings | None = None,
        *,
        listener: aioredis.Redis | None = None,
        prefix: str = DEFAULT_PREFIX,
        recheck: float = 5.0,
        linger: float = 10.0,
        url: str | None = None,
    ) -> None:
        self.settings = settings or StoreSettings()
        self.prefix = prefix
        self.link = Connection(
            self.settings, prefix, recheck=recheck, linger=linger, url=url,
            client=client, listener=listener,
        )  # fmt: skip
        """The store's way to Redis."""
        keys = RedisKeyLists(self.link)
        names = RedisNames(self.link)
        self.ratings = RedisRatings(self.link, self.settings)
        """Each key's ratings, each match rated once (relay.store.redis.ratings)."""
        self.moderation = RedisModeration(self.link, names, self.settings)
        """Bans, reports, blocks, voids and erasures (relay.store.moderation)."""
        self.hooks = RedisHooks(self.link.client, prefix)
        self.matches = RedisMatches(self.link, keys, self.moderation, self.ratings, self.hooks)
        self.tables = RedisTables(self.link, self.matches)
        self.lobbies = RedisLobbies(self.link)
        self.rematches = RedisRematches(self.link, keys, self.matches.tell)
        self.players = RedisPlayers(self.link, keys, names, self.ratings)
        self.passkeys = RedisPasskeys(self.link)
        """Passkeys, pending challenges and transfer codes (relay.store.passkeys)."""
        self.challenges = RedisChallenges(self.link, keys, self.moderation, self.matches.tell)
        """Challenges between player keys, and follows (relay.store.challenges)."""
        self.push = RedisPush(self.link)
        """The browsers each player key is pushed to (relay.store.push)."""

    @property
    def heard(self) -> int:
        """Event notices this process heard (see Store.heard)."""
        return self.link.heard

    @property
    def cluster(self) -> bool:
        """Whether the store runs on a Redis Cluster (known after its first call)."""
        return self.link.cluster

    @classmethod
    def from_url(
        cls,
        url: str,
        settings: StoreSettings | None = None,
        *,
        prefix: str = DEFAULT_PREFIX,
        recheck: float = 5.0,
        linger: float = 10.0,
    ) -> RedisStore:
        """Returns a store on the Redis at url: redis://host:port/db, rediss://…, unix:///path,
        or redis+sentinel://host:port[,host:port...]/name for the primary that Sentinels
        watch under that name (the store follows it through failovers).

        On its first call the store asks Redis whether it is a node of a Redis Cluster; if it
        is, the store finds the whole cluster from it."""
        return cls(settings=settings, prefix=prefix, recheck=recheck, linger=linger, url=url)

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self.link.wake_all()

    async def close(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        await self.link.close()


def open_url(url: str, settings: StoreSettings) -> RedisStore:
    """Returns a store on the Redis url names (see RedisStore.from_url, relay.store.open)."""
    return RedisStore.from_url(url, settings)
