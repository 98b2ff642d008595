"""The Redis store on a Redis Cluster: which master serves each key and channel.

redis-py's cluster client finds the cluster from any one node, keeps the map of slots to
masters and follows it through failovers; the store sends its hot calls on a pipelined
connection per master (`relay.store.redis.pipe`) routed by that map, and its sharded channels on a
connection per master (`relay.store.redis.notify`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import AskError, RedisClusterException, RedisError

from relay.store.redis.dial import Dial, Opener, dial_of
from relay.store.redis.pipe import Pipe

__all__ = ["ClusterLinks"]

log = logging.getLogger("relay.redis")


class ClusterLinks:
    """Links to the masters of a cluster, one pipelined connection each."""

    def __init__(self, cluster: RedisCluster) -> None:
        self.cluster = cluster
        self._pipes: dict[str, Pipe] = {}
        self._dials: dict[tuple[str, int], Dial] = {}
        self._moved: dict[int, tuple[str, str, int]] = {}
        """The master each slot a MOVED named serves it now (its name, host and port), until
        the map is next reloaded: kept here, as redis-py's way to note one differs by version."""
        self._refreshing: asyncio.Task[None] | None = None

    def _node(self, key: bytes) -> tuple[str, str, int]:
        """Returns the name, host and port of the master that serves the key's slot."""
        slot = key_slot(key)
        moved = self._moved.get(slot)
        if moved is not None:
            return moved
        node = self.cluster.nodes_manager.get_node_from_slot(slot)
        return node.name, node.host, int(node.port)

    def connect_to(self, host: str, port: int) -> Opener:
        """Returns how to open a connection to a node, with the cluster's settings (those of
        its nodes' redis-py connections)."""
        dial = self._dials.get((host, port))
        if dial is None:
            some = next(iter(self.cluster.nodes_manager.nodes_cache.values()))
            options = {**some.connection_kwargs, "host": host, "port": port}
            dial = self._dials[host, port] = dial_of(some.connection_class, options)
        return dial.open

    def route(self, key: bytes) -> tuple[str, Opener]:
        """Returns the name of the master serving a key or channel, and how to reach it."""
        name, host, port = self._node(key)
        return name, self.connect_to(host, port)

    def _pipe(self, name: str, host: str, port: int) -> Pipe:
        pipe = self._pipes.get(name)
        if pipe is None:
            pipe = self._pipes[name] = Pipe(self.connect_to(host, port))
        return pipe

    def pipe_for(self, key: str) -> Pipe:
        """Returns the connection to the master that serves the key."""
        return self._pipe(*self._node(key.encode()))

    async def redirected(self, error: AskError, asking: bool) -> Pipe:
        """Returns the connection to the node a MOVED or ASK error names; after MOVED, the
        slot's calls go there from now on."""
        name = f"{error.host}:{error.port}"
        if not asking:
            self._moved[error.slot_id] = (name, error.host, error.port)
        return self._pipe(name, error.host, error.port)

    def broken(self, pipe: Pipe) -> None:
        """Reloads the map of slots (once at a time): a master may have failed over."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self.refresh())

    async def refresh(self) -> None:
        """Reloads the cluster's map of slots to masters."""
        try:
            await self.cluster.nodes_manager.initialize()
            self._moved.clear()
        except (RedisError, RedisClusterException, OSError) as exc:
            # No node answered yet (a master just died): the next failure asks again.
            log.warning("Redis Cluster map not reloaded: %s", exc)

    async def close(self) -> None:
        """Closes every connection."""
        for pipe in self._pipes.values():
            await pipe.close()
        with contextlib.suppress(RedisError, OSError):
            await self.cluster.aclose()
