"""The Redis Cluster targets of `python -m bench`: the relay on a real 3-master cluster, and
where its matches landed; and on a cluster of one master, which tells the cost of cluster mode
from the cost of three redis-servers."""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Cluster", "matches_per_master", "redis_cluster"]


@dataclass(frozen=True)
class Cluster:
    """A scratch cluster the cluster targets share."""

    url: str
    """One node's URL: the relay finds the rest from it."""
    pids: list[int]
    """Every node's process (their CPU counts as redis-server's)."""
    ports: list[int]

    @property
    def masters(self) -> int:
        """How many masters it has (every node is one)."""
        return len(self.ports)


@contextlib.contextmanager
def redis_cluster(wanted: bool, masters: int = 3) -> Iterator[Cluster | None]:
    """Yields a scratch Redis Cluster of `masters` masters (None when not wanted, or when
    redis-server or redis-cli is not installed)."""
    if not wanted or shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        if wanted:
            print("redis-server or redis-cli is missing: skipping the cluster", file=sys.stderr)
        yield None
        return
    from tests.support.redis_cluster import RedisCluster

    with RedisCluster(masters=masters) as cluster:
        yield Cluster(cluster.url, cluster.pids, [node.port for node in cluster.nodes])


def matches_per_master(cluster: Cluster) -> list[int]:
    """Returns how many matches each master holds (counting the matches' hashes)."""
    import redis

    counts = []
    for port in cluster.ports:
        client = redis.Redis(port=port)
        try:
            counts.append(sum(1 for _ in client.scan_iter(match="movewire:*m:*", count=1000)))
        finally:
            client.close()
    return counts
