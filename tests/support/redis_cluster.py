"""Starts a real Redis Cluster, or a primary with a replica under three Sentinels, for tests.

Every process runs on loopback in a temp dir of its own and is stopped by its PID; failover
is forced by `kill -9` of a master (`RedisCluster.kill_master`) or of the primary
(`RedisSentinel.kill_primary`), which return once the replica has taken over."""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
import redis

from relay.core.model import StoreSettings
from relay.store.redis.store import RedisStore
from tests.support.components import require_binary
from tests.support.ports import free_ports

__all__ = [
    "ClusterNode",
    "RedisCluster",
    "RedisSentinel",
    "cluster_binaries",
    "fresh_cluster_store",
    "session_cluster",
]

NODE_TIMEOUT_MS = 1000
"""cluster-node-timeout and Sentinel's down-after-milliseconds: a dead master is noticed in ~1 s."""

SENTINEL_FAILOVER_TIMEOUT_MS = 3000
"""Sentinel's failover-timeout: a failover that stalls is tried again after twice this."""

MASTER_NAME = "movewire"
"""The name the Sentinels monitor the primary under."""


def cluster_binaries() -> tuple[str, str]:
    """Returns the paths of redis-server and redis-cli (installed with apt-get when missing)."""
    server = require_binary("redis-server", "redis-server")
    return server, require_binary("redis-cli", "redis-tools")


def free_node_port() -> int:
    """Returns a free loopback port whose cluster bus port (+10000) is free too."""
    return free_ports(1, bus=True)


def _wait(predicate: Callable[[], object], what: str, timeout: float) -> None:
    """Polls the predicate until it holds (errors of a node still starting count as not yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except (redis.RedisError, OSError):
            pass
        time.sleep(0.05)
    raise TimeoutError(f"{what} within {timeout} s")


@dataclass
class ClusterNode:
    """One redis-server process: its port, its process, its data dir."""

    port: int
    proc: subprocess.Popen[bytes]
    dir: Path

    @property
    def url(self) -> str:
        """Returns the redis:// URL of this node."""
        return f"redis://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """Returns the PID of this node's redis-server."""
        return self.proc.pid

    @property
    def alive(self) -> bool:
        """Returns whether the process still runs."""
        return self.proc.poll() is None

    def client(self) -> redis.Redis:
        """Returns a plain synchronous client of this one node (answers decoded to str)."""
        return redis.Redis(
            host="127.0.0.1", port=self.port, socket_timeout=2, decode_responses=True
        )

    def role(self) -> str:
        """Returns "master", "slave" or "sentinel", as the node says (ROLE)."""
        answer: list[Any] = self.client().role()  # type: ignore[assignment, unused-ignore]
        return str(answer[0])

    def master_port(self) -> int | None:
        """Returns the port of this replica's master (None when the node is no replica)."""
        answer: list[Any] = self.client().role()  # type: ignore[assignment, unused-ignore]
        return int(answer[2]) if answer[0] == "slave" else None

    def info(self, section: str) -> dict[str, Any]:
        """Returns a section of the node's INFO, parsed."""
        answer: dict[str, Any] = self.client().info(section)  # type: ignore[assignment, unused-ignore]
        return answer

    def log(self) -> str:
        """Returns the end of what the node logged."""
        try:
            return (self.dir / "redis.log").read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def kill(self) -> None:
        """Kills the process by PID (SIGKILL: no shutdown, no save) and reaps it."""
        if self.alive:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def _start(binary: str, dir: Path, port: int, *extra: str, conf: Path | None = None) -> ClusterNode:
    here = dir / str(port)
    here.mkdir()
    args = [binary, *([str(conf), "--sentinel"] if conf else []),
            "--port", str(port), "--bind", "127.0.0.1", "--dir", str(here), "--daemonize", "no",
            "--logfile", str(here / "redis.log"),
            *([] if conf else ["--save", "", "--appendonly", "no"]), *extra]  # fmt: skip
    node = ClusterNode(port, subprocess.Popen(args, stdout=subprocess.DEVNULL), here)
    try:
        _wait(lambda: node.alive and node.client().ping(), f"redis-server on {port} to answer", 10)
    except TimeoutError as error:
        node.kill()
        raise RuntimeError(f"{error}: {node.log()}") from None
    return node


class _Processes:
    """The nodes a fixture started, stopped by PID on exit."""

    def __init__(self, prefix: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.nodes: list[ClusterNode] = []

    def stop(self) -> None:
        """Stops every process started (by PID), and removes their data."""
        for node in self.nodes:
            if node.alive:
                node.proc.terminate()
        for node in self.nodes:
            try:
                node.proc.wait(5)
            except subprocess.TimeoutExpired:
                node.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class RedisCluster(_Processes):
    """A Redis Cluster of `masters` masters with `replicas` replicas each; a context manager."""

    def __init__(self, *, masters: int = 3, replicas: int = 0) -> None:
        super().__init__("movewire-cluster-")
        self.server, self.cli = cluster_binaries()
        self.masters_wanted, self.replicas = masters, replicas

    def __enter__(self) -> RedisCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def start(self, timeout: float = 20.0) -> RedisCluster:
        """Starts every node, joins them with `redis-cli --cluster create` (a lone master takes
        every slot itself), waits for state ok."""
        cluster = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                   "--cluster-node-timeout", str(NODE_TIMEOUT_MS)]  # fmt: skip
        for _ in range(self.masters_wanted * (1 + self.replicas)):
            self.nodes.append(_start(self.server, self.dir, free_node_port(), *cluster))
        if len(self.nodes) == 1:  # `--cluster create` takes 3 masters at least
            self.nodes[0].client().execute_command("CLUSTER", "ADDSLOTSRANGE", 0, 16383)  # type: ignore[no-untyped-call]
            self.wait_ok(timeout)
            return self
        created = subprocess.run(
            [self.cli, "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in self.nodes),
             "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout[-2000:]}")
        self.wait_ok(timeout)
        if self.replicas:
            _wait(self._replicas_in_sync, "every replica to sync with its master", timeout)
        return self

    @property
    def urls(self) -> list[str]:
        """Returns the URLs of the nodes still running, masters and replicas."""
        return [node.url for node in self.nodes if node.alive]

    @property
    def url(self) -> str:
        """Returns the URL of one live node: enough for a cluster client to find the rest."""
        return self.urls[0]

    @property
    def pids(self) -> list[int]:
        """Returns the PIDs of the nodes still running."""
        return [node.pid for node in self.nodes if node.alive]

    def roles(self) -> dict[int, str]:
        """Returns each live node's role ("master" or "slave") by port, as the node says."""
        return {node.port: node.role() for node in self.nodes if node.alive}

    @property
    def masters(self) -> list[ClusterNode]:
        """Returns the live nodes that are masters now, in the order they were started."""
        roles = self.roles()
        return [node for node in self.nodes if roles.get(node.port) == "master"]

    def master_of(self, key: str) -> ClusterNode:
        """Returns the live master that serves the key's slot now."""
        client = self.masters[0].client()
        slot = int(client.cluster("KEYSLOT", key))  # type: ignore[arg-type, unused-ignore]
        for start, end, master, *_replicas in client.execute_command("CLUSTER", "SLOTS"):  # type: ignore[no-untyped-call]
            if int(start) <= slot <= int(end):
                return next(node for node in self.nodes if node.port == int(master[1]))
        raise LookupError(f"no live master serves slot {slot} of {key!r}")

    def is_ok(self) -> bool:
        """Returns whether every live node says cluster_state:ok."""
        return all(_cluster_state(node) == "ok" for node in self.nodes if node.alive)

    def wait_ok(self, timeout: float = 20.0) -> None:
        """Waits until every live node says cluster_state:ok."""
        _wait(self.is_ok, "cluster_state:ok on every node", timeout)

    def _replicas_in_sync(self) -> bool:
        for node in self.nodes:
            replica = node.alive and node.role() == "slave"
            if replica and node.info("replication")["master_link_status"] != "up":
                return False
        return True

    def move_slot(self, key: str, to: ClusterNode, *, finish: bool = True) -> None:
        """Moves the key's slot, and its keys, to another master, as a resharding does.

        With finish=False the slot is left half-moved (MIGRATING on its old master, IMPORTING
        on the new, its keys already there): a client is then answered ASK for them, and MOVED
        once the move is finished."""
        source = self.master_of(key)
        if source is to:
            raise ValueError(f"the slot of {key!r} is already on port {to.port}")
        slot = int(source.client().cluster("KEYSLOT", key))  # type: ignore[arg-type, unused-ignore]
        source_id, to_id = _node_id(source), _node_id(to)
        _cluster(to, "SETSLOT", slot, "IMPORTING", source_id)
        _cluster(source, "SETSLOT", slot, "MIGRATING", to_id)
        while keys := _cluster(source, "GETKEYSINSLOT", slot, 100):
            source.client().execute_command(  # type: ignore[no-untyped-call]
                "MIGRATE", "127.0.0.1", to.port, "", 0, 5000, "KEYS", *keys
            )
        if finish:
            # As Redis's docs order it: the new owner first, then the old, then the rest;
            # then until every master says so (as redis-cli waits after a resharding).
            others = [node for node in self.masters if node is not to and node is not source]
            for node in (to, source, *others):
                _cluster(node, "SETSLOT", slot, "NODE", to_id)
            _wait(
                lambda: self._owners(slot) == {to.port},
                f"every master to give {slot} to {to.port}",
                20.0,
            )

    def _owners(self, slot: int) -> set[int]:
        """Returns the ports every live master names as the slot's owner."""
        owners = set()
        for node in self.masters:
            for start, end, master, *_ in node.client().execute_command("CLUSTER", "SLOTS"):  # type: ignore[no-untyped-call]
                if int(start) <= slot <= int(end):
                    owners.add(int(master[1]))
        return owners

    def kill_master(self, i: int = 0, timeout: float = 20.0) -> ClusterNode:
        """Kills the i-th live master (kill -9 by PID); returns the replica promoted in its place.

        Returns once a replica of it is master and every live node says cluster_state:ok."""
        victim = self.masters[i]
        replicas = [
            node
            for node in self.nodes
            if node.alive and node is not victim and node.master_port() == victim.port
        ]
        if not replicas:
            raise LookupError(f"master on port {victim.port} has no replica to promote")
        victim.kill()
        promoted: list[ClusterNode] = []

        def replica_promoted() -> bool:
            promoted[:] = [n for n in replicas if n.role() == "master"]
            return bool(promoted)

        _wait(replica_promoted, f"a replica of {victim.port} to be promoted", timeout)
        self.wait_ok(timeout)
        return promoted[0]


def _cluster(node: ClusterNode, *args: object) -> Any:
    """Sends CLUSTER <args> to the node; answers as the server gives them (no parsing)."""
    return node.client().execute_command("CLUSTER", *args)  # type: ignore[no-untyped-call]


def _node_id(node: ClusterNode) -> str:
    return str(_cluster(node, "MYID"))


def _cluster_state(node: ClusterNode) -> str:
    answer: dict[str, Any] = node.client().cluster("INFO")  # type: ignore[assignment, unused-ignore]
    return str(answer["cluster_state"])


class RedisSentinel(_Processes):
    """A primary, one replica of it, and three Sentinels watching them; a context manager."""

    def __init__(self) -> None:
        super().__init__("movewire-sentinel-")
        self.server, _ = cluster_binaries()
        self.sentinels: list[ClusterNode] = []

    def __enter__(self) -> RedisSentinel:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def start(self, timeout: float = 20.0) -> RedisSentinel:
        """Starts the primary, its replica and three Sentinels; waits until all know each other."""
        primary = _start(self.server, self.dir, free_node_port())
        replica = _start(self.server, self.dir, free_node_port(),
                         "--replicaof", "127.0.0.1", str(primary.port))  # fmt: skip
        self.nodes += [primary, replica]
        _wait(lambda: replica.info("replication")["master_link_status"] == "up",
              "the replica to sync", timeout)  # fmt: skip
        for _ in range(3):
            port = free_node_port()
            conf = self.dir / f"sentinel-{port}.conf"
            conf.write_text(
                f"sentinel monitor {MASTER_NAME} 127.0.0.1 {primary.port} 2\n"
                f"sentinel down-after-milliseconds {MASTER_NAME} {NODE_TIMEOUT_MS}\n"
                f"sentinel failover-timeout {MASTER_NAME} {SENTINEL_FAILOVER_TIMEOUT_MS}\n"
                f"sentinel parallel-syncs {MASTER_NAME} 1\n"
            )
            sentinel = _start(self.server, self.dir, port, conf=conf)
            self.sentinels.append(sentinel)
        self.nodes += self.sentinels
        _wait(self._sentinels_ready, "the Sentinels to find the replica and each other", timeout)
        return self

    def _sentinels_ready(self) -> bool:
        # Each Sentinel must know the replica and the two other Sentinels to vote a failover.
        return all(
            _watched(s)["slaves"] >= 1 and _watched(s)["sentinels"] >= 3 for s in self.sentinels
        )

    @property
    def sentinel_addresses(self) -> list[tuple[str, int]]:
        """Returns (host, port) of each live Sentinel for `redis.asyncio.sentinel.Sentinel`."""
        return [("127.0.0.1", s.port) for s in self.sentinels if s.alive]

    @property
    def primary(self) -> ClusterNode:
        """Returns the node the Sentinels name as primary now."""
        port = self.primary_port()
        return next(node for node in self.nodes[:2] if node.port == port)

    def primary_port(self) -> int:
        """Returns the primary's port as the first live Sentinel reports it."""
        sentinel = next(s for s in self.sentinels if s.alive)
        return int(str(_watched(sentinel)["address"]).rpartition(":")[2])

    def kill_primary(self, timeout: float = 20.0) -> ClusterNode:
        """Kills the primary (kill -9 by PID); returns the replica once every Sentinel names it."""
        old = self.primary
        new = next(node for node in self.nodes[:2] if node is not old)
        old.kill()

        def promoted() -> bool:
            named = all(_watched(s)["address"] == f"127.0.0.1:{new.port}" for s in self.sentinels)
            return named and new.role() == "master"

        _wait(promoted, "the Sentinels to name the replica primary", timeout)
        return new


def _watched(sentinel: ClusterNode) -> dict[str, Any]:
    """Returns what a Sentinel's INFO says of its primary (address, slaves, sentinels)."""
    info = sentinel.info("sentinel")
    return next(v for k, v in info.items() if k.startswith("master") and isinstance(v, dict))


_shared: list[RedisCluster] = []
_prefixes = itertools.count()


def session_cluster(request: pytest.FixtureRequest) -> RedisCluster:
    """Returns the 3-master Redis Cluster shared by this test session, started on first use
    (stores on it keep apart by key prefix, as on `session_redis`)."""
    if not _shared or not all(node.alive for node in _shared[0].nodes):
        _shared.clear()
        cluster = RedisCluster(masters=3, replicas=0)
        request.config.add_cleanup(cluster.stop)
        try:
            _shared.append(cluster.start())
        except BaseException:
            cluster.stop()
            raise
    return _shared[0]


async def fresh_cluster_store(
    request: pytest.FixtureRequest, settings: StoreSettings
) -> RedisStore:
    """Returns an empty Redis store on the session's Redis Cluster (a key prefix of its own),
    reached through one node's URL as a host would configure it."""
    cluster = session_cluster(request)
    prefix = f"cluster{os.getpid()}-{next(_prefixes)}:"
    return RedisStore.from_url(cluster.url, settings, prefix=prefix)
