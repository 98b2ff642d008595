"""Where the Redis store's Redis is: one Redis, the primary Sentinels name, or a Redis Cluster,
found on the first call; the pipelined batches and the notifier opened on it; and whether
Redis answers at all (503 while it does not)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ConstantBackoff

from relay.core.errors import RelayError
from relay.store.redis.batch import Batcher, OneRedis
from relay.store.redis.cluster import ClusterLinks
from relay.store.redis.dial import dial_for
from relay.store.redis.notify import Notifier
from relay.store.redis.pipe import packing
from relay.store.redis.refusals import DOWN, UNAVAILABLE

__all__ = ["SENTINEL_SCHEME", "Topology", "sentinel_url"]

log = logging.getLogger("relay.redis")

SENTINEL_SCHEME = "redis+sentinel://"
"""The scheme of a store URL naming Sentinels and the primary they watch:
redis+sentinel://[:password@]host:port[,host:port...]/name[?db=N]."""

_RETRY_AFTER = 1.0
"""Seconds a client is told to wait before retrying while Redis is unavailable."""


class Topology:
    """The Redis a store talks to, found on its first call from a URL (or given as clients),
    and whether it answers."""

    def __init__(
        self,
        *,
        linger: float,
        url: str | None = None,
        client: aioredis.Redis | None = None,
        listener: aioredis.Redis | None = None,
    ) -> None:
        self.linger = linger
        """Seconds a channel stays subscribed after its last wait ended."""
        self._url = url
        """Where Redis is, when the store finds out on its first call whether it is a cluster."""
        self._redis: Any = None
        self._clients: list[Any] = []
        self._batch: Batcher | None = None
        self._notes: Notifier | None = None
        self._opening = asyncio.Lock()
        self.cluster = False
        """Whether the store runs on a Redis Cluster."""
        self._down = False
        self._failed = 0.0
        """When a call last found Redis unavailable (time.monotonic)."""
        if client is not None:
            self._one_redis(client, listener or client)

    def _one_redis(self, client: aioredis.Redis, listener: aioredis.Redis) -> None:
        self._redis = client
        self._clients = [client] if listener is client else [client, listener]
        self._batch = Batcher(OneRedis(dial_for(client.connection_pool).open))
        opener = dial_for(listener.connection_pool).open
        self._notes = Notifier(lambda _: ("redis", opener), self.linger)

    async def _connect(self) -> tuple[Batcher, Notifier]:
        """Connects on the first call of a store made from a URL: to one Redis, or to the
        cluster the node at the URL belongs to."""
        async with self._opening:
            if self._batch is None or self._notes is None:
                assert self._url is not None
                if self._url.startswith(SENTINEL_SCHEME):
                    self._on_sentinels(self._url)
                    log.info("Redis store on the primary the Sentinels name")
                elif await self._is_cluster(self._url):
                    await self._on_cluster(self._url)
                    log.info("Redis store on a Redis Cluster")
                else:
                    self._on_one_redis(self._url)
                    log.info("Redis store on one Redis")
        assert self._batch is not None and self._notes is not None
        return self._batch, self._notes

    async def client(self) -> Any:
        """Returns the redis-py client for plain calls (connecting first)."""
        if self._batch is None:
            await self._connect()
        return self._redis

    async def notes(self) -> Notifier:
        """Returns the notifier that follows the store's channels (connecting first)."""
        notes = self._notes
        return notes if notes is not None else (await self._connect())[1]

    async def _is_cluster(self, url: str) -> bool:
        probe = aioredis.Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=5.0)
        try:
            found = await probe.info("cluster")
        except DOWN as exc:
            raise self.unavailable(exc) from None
        finally:
            await probe.aclose()
        return bool(found.get("cluster_enabled"))

    def _on_one_redis(self, url: str) -> None:
        client = aioredis.Redis.from_url(
            url,
            socket_connect_timeout=2.0,
            socket_timeout=5.0,
            # One quick retry on a fresh connection: pooled connections die when Redis restarts.
            retry=Retry(ConstantBackoff(0.05), 1),
            health_check_interval=30,
        )
        pool = client.connection_pool
        pool.connection_class = packing(pool.connection_class)
        # The pipe and the notifier open their own connections with the client's options.
        self._one_redis(client, client)

    def _on_sentinels(self, url: str) -> None:
        sentinels, name, options = sentinel_url(url)
        watcher = Sentinel(  # type: ignore[no-untyped-call]
            sentinels, socket_connect_timeout=2.0, socket_timeout=2.0
        )
        client = watcher.master_for(name, socket_connect_timeout=2.0, socket_timeout=5.0, **options)
        pool = client.connection_pool
        pool.connection_class = packing(pool.connection_class)
        self._one_redis(client, client)

    async def _on_cluster(self, url: str) -> None:
        cluster = RedisCluster.from_url(url, socket_connect_timeout=2.0, socket_timeout=5.0)
        try:
            await cluster.initialize()
        except DOWN as exc:
            await cluster.aclose()
            raise self.unavailable(exc) from None
        links = ClusterLinks(cluster)
        self.cluster = True
        self._redis = cluster
        self._clients = []  # closed by the links
        self._batch = Batcher(links)
        self._notes = Notifier(links.route, self.linger, refresh=links.refresh)

    def unavailable(self, exc: BaseException) -> RelayError:
        """Returns the 503 answered while Redis cannot answer (logging the outage once)."""
        self._failed = time.monotonic()
        if not self._down:
            self._down = True
            log.warning("Redis unavailable, answering 503 until it is back: %s", exc)
        return RelayError("server/unavailable", UNAVAILABLE, retry_after=_RETRY_AFTER)

    def up(self) -> None:
        """Notes that a call succeeded: Redis is back once calls succeed a second after the
        last failure (on a cluster, calls to the other masters succeed while one fails
        over)."""
        if self._down and time.monotonic() - self._failed > 1.0:
            self._down = False
            log.warning("Redis is back")

    async def close_links(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        if self._notes is not None:
            await self._notes.close()
        if self._batch is not None:
            await self._batch.close()
        for client in self._clients:
            await client.aclose()


def sentinel_url(url: str) -> tuple[list[tuple[str, int]], str, dict[str, Any]]:
    """Returns the Sentinels' addresses, the primary's name and the primary's connection
    options (password, db) of a redis+sentinel:// URL; raises ValueError if it is not one."""
    parts = urlsplit(url)
    where = parts.netloc.rpartition("@")[2]
    name = parts.path.strip("/")
    if parts.scheme != SENTINEL_SCHEME.removesuffix("://") or not where or not name:
        raise ValueError(f"Expected redis+sentinel://host:port[,host:port...]/name, not {url!r}")
    sentinels = []
    for address in where.split(","):
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"Expected host:port in {url!r}, not {address!r}")
        sentinels.append((host, int(port)))
    options: dict[str, Any] = {}
    if parts.password:
        options["password"] = unquote(parts.password)
    db = parse_qs(parts.query).get("db")
    if db:
        options["db"] = int(db[0])
    return sentinels, name, options
