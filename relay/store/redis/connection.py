"""The Redis store's way to Redis: one Redis, the primary Sentinels name, or a Redis Cluster,
found on the first call; its library's functions called in pipelined batches; plain calls
through redis-py; waits on sharded pub/sub notices; and Redis's absence answered as 503."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ConstantBackoff
from redis.exceptions import ResponseError

from relay.core.errors import RelayError
from relay.core.model import StoreSettings
from relay.core.table import AWAY
from relay.store.redis import library as redis_library
from relay.store.redis.batch import Batcher, OneRedis, Script
from relay.store.redis.cluster import ClusterLinks
from relay.store.redis.dial import dial_for
from relay.store.redis.keys import SHARDS, GameKeys, Layout
from relay.store.redis.notify import Channel, Notifier, Waiter
from relay.store.redis.pipe import packing
from relay.store.redis.refusals import DOWN, UNAVAILABLE, Refusal, loading, refusal_of

__all__ = [
    "DEFAULT_PREFIX",
    "SCRIPTS",
    "SENTINEL_SCHEME",
    "Connection",
    "registered",
    "sentinel_url",
    "sleep",
    "timings",
]

log = logging.getLogger("relay.redis")

DEFAULT_PREFIX = "movewire:"
"""The prefix of every key the store writes (several relays may share one Redis by prefix)."""

SENTINEL_SCHEME = "redis+sentinel://"
"""The scheme of a store URL naming Sentinels and the primary they watch:
redis+sentinel://[:password@]host:port[,host:port...]/name[?db=N]."""

SCRIPTS = {
    name: Script(function, redis_library.LIBRARY)
    for name, function in redis_library.FUNCTIONS.items()
}
"""Each script of the library, by its name in lua/ (in upper case)."""

_T = TypeVar("_T")

_RETRY_AFTER = 1.0
"""Seconds a client is told to wait before retrying while Redis is unavailable."""


class Connection:
    """The store's link to Redis: calls, plain commands, and waits on notices (see Link)."""

    def __init__(
        self,
        settings: StoreSettings,
        prefix: str,
        *,
        recheck: float,
        linger: float,
        url: str | None = None,
        client: aioredis.Redis | None = None,
        listener: aioredis.Redis | None = None,
    ) -> None:
        self.settings = settings
        self.prefix = prefix
        self.layout = Layout(prefix)
        """Where the store's keys are (relay.store.redis.keys)."""
        self.recheck = recheck
        """Seconds a waiting poll trusts pub/sub before it re-reads the log anyway."""
        self.linger = linger
        self._url = url
        """Where Redis is, when the store finds out on its first call whether it is a cluster."""
        self._redis: Any = None
        self._clients: list[Any] = []
        self._batch: Batcher | None = None
        self._notes: Notifier | None = None
        self._opening = asyncio.Lock()
        self.cluster = False
        """Whether the store runs on a Redis Cluster."""
        self.closing = False
        """Whether the store is closing: waits end at once."""
        self._down = False
        self._failed = 0.0
        """When a call last found Redis unavailable (time.monotonic)."""
        if client is not None:
            self._one_redis(client, listener or client)

    @property
    def notices(self) -> int:
        """Event notices this process heard (see Store.notices)."""
        return 0 if self._notes is None else self._notes.notices

    # -- connecting ------------------------------------------------------------------------

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

    # -- calling Redis ---------------------------------------------------------------------

    def match_args(self, tagged: str, match: str, now: float, *rest: object) -> list[Any]:
        """Returns a match script's arguments: the shard's tagged prefix, the match, now,
        the store's timings and keep (MATCH_PRELUDE's begin_match), then rest."""
        return [tagged, match, repr(float(now)), timings(self.settings), repr(self.settings.keep),
                *rest]  # fmt: skip

    async def run(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """Runs a script and returns its answer, or raises Refusal with the error it gave.

        A Redis that cannot answer becomes RelayError('server/unavailable')."""
        batch = self._batch
        if batch is None:
            batch = (await self._connect())[0]
        try:
            answer = await batch.call(script, keys, args)
        except DOWN as exc:
            raise self.unavailable(exc) from None
        except ResponseError as exc:
            if loading(exc):
                raise self.unavailable(exc) from None
            raise
        self.up()
        if isinstance(answer, list) and answer and answer[0] == b"e":
            raise refusal_of(answer)
        return answer

    async def on_match(self, name: str, match: str, now: float, *rest: object) -> Any:
        """Runs the match script called name on match (see run)."""
        tagged = self.layout.tagged(match)
        args = self.match_args(tagged, match, now, *rest)
        return await self.run(SCRIPTS[name], [f"{tagged}m:{match}"], args)

    async def on_game(
        self, name: str, game: GameKeys, now: float, memo: str, *rest: object,
        span: float | None = None,
    ) -> Any:  # fmt: skip
        """Runs the game script called name; a seeker's memo lasts span seconds (default the
        grace period)."""
        keys = [game.queue, game.waiting, memo]
        args = [repr(float(now)), repr(self.settings.grace if span is None else span), *rest]
        return await self.run(SCRIPTS[name], keys, args)

    async def call(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Runs a function of the library by its script's name (the rematch and lobby
        scripts, which name every key they touch); a refusal becomes its RelayError."""
        try:
            return await self.run(SCRIPTS[name], keys, args)
        except Refusal as refusal:
            raise RelayError(refusal.code) from None

    async def guard(self, reply: Awaitable[_T]) -> _T:
        """Awaits a plain Redis reply; a Redis that cannot answer becomes server/unavailable."""
        try:
            found = await reply
        except DOWN as exc:
            raise self.unavailable(exc) from None
        except RuntimeError as exc:
            # redis-py writing to a transport closed under it (uvloop: "the handler is
            # closed"), as a cluster node is killed: Redis away, as in relay.store.redis.pipe.
            raise self.unavailable(exc) from None
        self.up()
        return found

    async def wait_notice(
        self, name: str, ready: Callable[[], Awaitable[bool]], timeout: float
    ) -> None:
        """Returns once ready() answers true, asking again at each notice on the channel
        (and every `recheck` seconds), or after timeout."""
        notes = await self.notes()
        channel = notes.follow(name)
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while True:
                with registered(channel, loop) as waiter:
                    # Asked after registering: a change after this read finds the waiter.
                    if await ready() or self.closing:
                        return
                    left = deadline - loop.time()
                    if left <= 0:
                        return
                    await sleep(waiter, min(left, self.recheck))
        finally:
            notes.leave(channel)

    async def tallies(self) -> list[tuple[str, int]]:
        """Returns every shard's counts: matches by status, and 'ended:<reason>' totals."""
        pipe = (await self.client()).pipeline(transaction=False)
        for shard in range(SHARDS):
            pipe.hgetall(self.layout.shard(shard)[2])
        found: list[dict[bytes, bytes]] = await self.guard(pipe.execute())
        return [(name.decode(), int(count)) for held in found for name, count in held.items()]

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

    # -- ending ----------------------------------------------------------------------------

    def sweep(self) -> None:
        """Lets the notifier drop the channels no wait follows any more."""
        if self._notes is not None:
            self._notes.sweep()

    def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self.closing = True
        if self._notes is not None:
            self._notes.wake_all()

    async def close(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        self.closing = True
        if self._notes is not None:
            await self._notes.close()
        if self._batch is not None:
            await self._batch.close()
        for client in self._clients:
            await client.aclose()


@contextlib.contextmanager
def registered(channel: Channel, loop: asyncio.AbstractEventLoop) -> Iterator[Waiter]:
    """Registers a waiter on the channel for the block (notices wake it with True)."""
    waiter: Waiter = loop.create_future()
    channel.waiters.add(waiter)
    try:
        yield waiter
    finally:
        channel.waiters.discard(waiter)


async def sleep(waiter: Waiter, seconds: float) -> bool:
    """Returns True once a notice wakes the waiter, or False after `seconds`."""
    timer = asyncio.get_running_loop().call_later(seconds, _time_out, waiter)
    try:
        return await waiter
    finally:
        timer.cancel()


def _time_out(waiter: Waiter) -> None:
    """Ends a wait's sleep, as not woken by a notification."""
    if not waiter.done():
        waiter.set_result(False)


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


def timings(settings: StoreSettings) -> str:
    """Returns the store's timings as a match script reads them (MATCH_PRELUDE's ARGV[4]):
    'grace:hold:seek_grace:claim_after:away'."""
    return ":".join(
        repr(float(value))
        for value in (
            settings.grace, settings.hold, settings.seek_grace, settings.claim_after, AWAY
        )
    )  # fmt: skip
