"""The Redis store: matches shared by every relay process on every box, durable with AOF.

Each change to a match is one Lua script on one slot (see `relay/store/redis/lua/` and the key
layout in `relay.store.redis.keys`), so two relay processes never pair one seeker twice, never
accept two moves for one turn and never give two events one number. The calls made in one
event-loop turn go to Redis as one pipeline (`relay.store.redis.batch`). A waiting poll is woken by
the notice of the event it waits for, on one of its match's two sharded pub/sub channels
(`relay.store.redis.notify`), heard only by the processes that wait for an event of that parity
in that match; it also re-reads the log every `recheck` seconds, so a lost notification
only delays an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar, cast
from urllib.parse import parse_qs, unquote, urlsplit

import orjson
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ConstantBackoff, NoBackoff
from redis.exceptions import (
    AskError,
    ClusterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import (
    ConnectionError as RedisConnectionError,
)
from redis.exceptions import (
    TimeoutError as RedisTimeoutError,
)

from relay.core import model
from relay.core.clock import TimeControl
from relay.core.errors import RelayError
from relay.core.lobby import Lobby, LobbyKind
from relay.core.model import (
    Action,
    Event,
    MatchInfo,
    Status,
    StoreSettings,
    Ticket,
    behind,
    control_mismatch,
    finished,
    hash_token,
    new_token,
    too_long,
)
from relay.core.players import PlayerMatch, patience, same_player
from relay.core.rematch import Rematch, RematchOp, lapse_at
from relay.core.turns import TurnNotice, TurnSink
from relay.store.base import Immediate
from relay.store.redis import keys as redis_keys
from relay.store.redis import library as redis_library
from relay.store.redis.batch import Batcher, OneRedis, Script
from relay.store.redis.cluster import ClusterLinks
from relay.store.redis.hooks import RedisHookState
from relay.store.redis.keys import INFO_FIELDS, GameKeys, Layout, match_info
from relay.store.redis.lobby import RedisLobbies
from relay.store.redis.notify import Channel, Notifier, Waiter
from relay.store.redis.pipe import packing
from relay.store.redis.players import RedisPlayers
from relay.store.redis.rematch import RedisRematches

__all__ = [
    "DEFAULT_PREFIX",
    "SENTINEL_SCHEME",
    "UNAVAILABLE",
    "RedisStore",
    "open_url",
    "sentinel_url",
]

log = logging.getLogger("relay.redis")

DEFAULT_PREFIX = "movewire:"
"""The prefix of every key the store writes (several relays may share one Redis by prefix)."""

UNAVAILABLE = "The match store (Redis) cannot be reached; retry shortly."
"""The message of the 503 answer while Redis is down, restarting or loading its data."""

_DOWN = (
    RedisConnectionError,
    RedisTimeoutError,
    ReadOnlyError,
    OutOfMemoryError,
    OSError,
    ClusterDownError,
    TryAgainError,
    RedisClusterException,
    AskError,  # MOVED too: still redirected after the store's tries, as a slot moves
)
"""Redis failures that mean 'not now' (503) rather than a bug (500)."""

_T = TypeVar("_T")

_RETRY_AFTER = 1.0
"""Seconds a client is told to wait before retrying while Redis is unavailable."""

_SCRIPTS = {
    name: Script(function, redis_library.LIBRARY)
    for name, function in redis_library.FUNCTIONS.items()
}
_ACT, _POLL, _OPEN, _JOIN, _ROOM, _REAP = (
    _SCRIPTS[name] for name in ("ACT", "POLL", "OPEN", "JOIN", "ROOM", "REAP")
)
_PAIR, _PUSH, _ENSURE, _UNLIST, _RESERVE, _REQUEUE = (
    _SCRIPTS[name] for name in ("PAIR", "PUSH", "ENSURE", "UNLIST", "RESERVE", "REQUEUE")
)

_SAME = -1
"""What _join answers for a match whose seat was taken with the seeker's own player key."""

_REQUEUE_AFTER = 5.0
"""Seconds after its opening at which a waiting match's seat polling it makes sure the match
is in its game's queue (see ENSURE)."""


class RedisStore:
    """Keeps matches in Redis: any relay process sharing it may answer any request."""

    immediate: Immediate | None = None
    """Every call waits on Redis: endpoints run as tasks (see Store.immediate)."""
    turns: TurnSink | None = None
    """Told of turns given in correspondence matches (see Store.turns)."""

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
        self._keys = Layout(prefix)
        self.prefix = prefix
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
        self._closing = False
        self._down = False
        self._failed = 0.0
        """When a call last found Redis unavailable (time.monotonic)."""
        self._rematches = RedisRematches(self)
        self._lobbies = RedisLobbies(self)
        self.players = RedisPlayers(self)
        """The lists of matches per player key."""
        self._hooks: RedisHookState | None = None
        if client is not None:
            self._one_redis(client, listener or client)

    @property
    def notices(self) -> int:
        """Event notices this process heard (see Store.notices)."""
        return 0 if self._notes is None else self._notes.notices

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

    def _one_redis(self, client: aioredis.Redis, listener: aioredis.Redis) -> None:
        self._redis = client
        self._clients = [client] if listener is client else [client, listener]
        self._batch = Batcher(OneRedis(client.connection_pool.make_connection))
        connect = listener.connection_pool.make_connection
        self._notes = Notifier(lambda _: ("redis", connect), self.linger)

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
        """Returns the redis-py client for the store's other calls (connecting first)."""
        if self._batch is None:
            await self._connect()
        return self._redis

    async def _is_cluster(self, url: str) -> bool:
        probe = aioredis.Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=5.0)
        try:
            found = await probe.info("cluster")
        except _DOWN as exc:
            raise self._unavailable(exc) from None
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
        listener = aioredis.Redis.from_url(
            url,
            socket_connect_timeout=2.0,
            socket_timeout=None,
            # The notifier reconnects by itself (and wakes every poll) instead.
            retry=Retry(NoBackoff(), 0),
        )
        for made in (client, listener):
            pool = made.connection_pool
            pool.connection_class = packing(pool.connection_class)
        self._one_redis(client, listener)

    def _on_sentinels(self, url: str) -> None:
        sentinels, name, options = sentinel_url(url)
        watcher = Sentinel(  # type: ignore[no-untyped-call]
            sentinels, socket_connect_timeout=2.0, socket_timeout=2.0
        )
        client = watcher.master_for(name, socket_connect_timeout=2.0, socket_timeout=5.0, **options)
        listener = watcher.master_for(name, socket_connect_timeout=2.0, **options)
        for made in (client, listener):
            pool = made.connection_pool
            pool.connection_class = packing(pool.connection_class)
        self._one_redis(client, listener)

    async def _on_cluster(self, url: str) -> None:
        cluster = RedisCluster.from_url(url, socket_connect_timeout=2.0, socket_timeout=5.0)
        try:
            await cluster.initialize()
        except _DOWN as exc:
            await cluster.aclose()
            raise self._unavailable(exc) from None
        links = ClusterLinks(cluster)
        self.cluster = True
        self._redis = cluster
        self._clients = []  # closed by the links
        self._batch = Batcher(links)
        self._notes = Notifier(links.route, self.linger, refresh=links.refresh)

    # -- calling Redis ---------------------------------------------------------------------

    def _match_args(self, tagged: str, match: str, now: float, *rest: object) -> list[Any]:
        s = self.settings
        return [tagged, match, repr(float(now)), repr(s.grace), repr(s.keep), *rest]

    async def _call(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """Runs a script and returns its answer, or raises _Refusal with the error it gave.

        A Redis that cannot answer becomes RelayError('server/unavailable')."""
        batch = self._batch
        if batch is None:
            batch = (await self._connect())[0]
        try:
            answer = await batch.call(script, keys, args)
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        except ResponseError as exc:
            if _loading(exc):
                raise self._unavailable(exc) from None
            raise
        self._up()
        if isinstance(answer, list) and answer and answer[0] == b"e":
            raise _refusal(answer)
        return answer

    async def _on_match(self, script: Script, match: str, now: float, *rest: object) -> Any:
        tagged = self._keys.tagged(match)
        args = self._match_args(tagged, match, now, *rest)
        return await self._call(script, [f"{tagged}m:{match}"], args)

    async def _on_game(
        self, script: Script, game: GameKeys, now: float, memo: str, *rest: object,
        span: float | None = None,
    ) -> Any:  # fmt: skip
        """Runs a game script; a seeker's memo lasts span seconds (default the grace period)."""
        keys = [game.queue, game.waiting, memo]
        args = [repr(float(now)), repr(self.settings.grace if span is None else span), *rest]
        return await self._call(script, keys, args)

    async def call(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Runs a function of the library by its script's name (the rematch and lobby
        scripts, which name every key they touch); a refusal becomes its RelayError."""
        try:
            return await self._call(_SCRIPTS[name], keys, args)
        except _Refusal as refusal:
            raise RelayError(refusal.code) from None

    async def guard(self, reply: Awaitable[_T]) -> _T:
        """Awaits a plain Redis reply; a Redis that cannot answer becomes server/unavailable."""
        try:
            found = await reply
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        return found

    async def _wait_notice(
        self, name: str, ready: Callable[[], Awaitable[bool]], timeout: float
    ) -> None:
        """Returns once ready() answers true, asking again at each notice on the channel
        (and every `recheck` seconds), or after timeout."""
        notes = self._notes
        if notes is None:
            notes = (await self._connect())[1]
        channel = notes.follow(name)
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while True:
                with _registered(channel, loop) as waiter:
                    # Asked after registering: a change after this read finds the waiter.
                    if await ready() or self._closing:
                        return
                    left = deadline - loop.time()
                    if left <= 0:
                        return
                    await _sleep(waiter, min(left, self.recheck))
        finally:
            notes.leave(channel)

    def _unavailable(self, exc: BaseException) -> RelayError:
        self._failed = time.monotonic()
        if not self._down:
            self._down = True
            log.warning("Redis unavailable, answering 503 until it is back: %s", exc)
        return RelayError("server/unavailable", UNAVAILABLE, retry_after=_RETRY_AFTER)

    def _up(self) -> None:
        # Back once calls succeed a second after the last failure (on a cluster, calls to
        # the other masters succeed while one is failing over).
        if self._down and time.monotonic() - self._failed > 1.0:
            self._down = False
            log.warning("Redis is back")

    # -- reading ---------------------------------------------------------------------------

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """Returns the reader's seat and the events above after; marks a seat present."""
        digest = "" if token is None else hash_token(token)
        try:
            _, seat, events, status = await self._on_match(_POLL, match, now, digest, after)
        except _Refusal as refusal:
            raise _read_error(refusal, match, after) from None
        if seat == 0 and status == b"waiting":
            await self._requeue(match, now)
        return (None if seat < 0 else int(seat)), list(events)

    async def _requeue(self, match: str, now: float) -> None:
        """Makes sure a waiting match, opened a while ago, is in its game's queue."""
        fields = ("room", "status", "since", "game", "version", "tc")
        try:
            reply = (await self.client()).hmget(self._keys.match(match), list(fields))
            room, status, since, game, version, control = await cast(Awaitable[list[Any]], reply)
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        if room is None and status == b"waiting" and float(since) + _REQUEUE_AFTER < now:
            queue = version.decode() + ("" if control is None else f"~{control.decode()}")
            keys = GameKeys(self.prefix, game.decode(), queue)
            await self._call(_ENSURE, [keys.queue, keys.waiting], [repr(float(now)), 0, match])

    async def wait(self, match: str, after: int, timeout: float) -> list[Event]:
        """Returns the events above after once there are any, or [] after timeout."""
        if timeout <= 0 or self._closing:
            return (await self.poll(match, None, after, 0.0))[1]
        notes = self._notes
        if notes is None:
            notes = (await self._connect())[1]
        channel = notes.follow(self._keys.channel(match, after + 1))
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            woken = True
            while True:
                # While the subscription is live, every event after the newest heard will be
                # heard: the log needs reading only when something else may have happened.
                heard = channel.heard
                if woken and channel.live and heard is not None:
                    if heard[0] == after + 1:
                        return [heard[1]]  # exactly the next event: no read needed
                    read = heard[0] > after
                else:
                    read = True
                with _registered(channel, loop) as waiter:
                    if read:
                        # Read after registering: an event appended before now is in this
                        # read, and the notification of any later one finds the waiter.
                        events = (await self.poll(match, None, after, 0.0))[1]
                        if events or self._closing:
                            return events
                    left = deadline - loop.time()
                    if left <= 0:
                        return []
                    woken = await _sleep(waiter, min(left, self.recheck))
        finally:
            notes.leave(channel)

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""
        try:
            reply = (await self.client()).hmget(self._keys.match(match), list(INFO_FIELDS))
            values: list[bytes | None] = await cast(Awaitable[list[Any]], reply)
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        found = match_info(match, values)
        if found is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if found.status == Status.EXPIRED:
            raise RelayError("match/expired")
        return found

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""
        counts = dict.fromkeys(Status, 0)
        for name, count in await self._tallies():
            if not name.startswith("ended:"):
                counts[Status(name)] += count
        return counts

    async def endings(self) -> dict[str, int]:
        """Returns how many matches ended, by reason (see Store.endings)."""
        endings: dict[str, int] = {}
        for name, count in await self._tallies():
            if name.startswith("ended:"):
                reason = name.removeprefix("ended:")
                endings[reason] = endings.get(reason, 0) + count
        return endings

    async def _tallies(self) -> list[tuple[str, int]]:
        """Returns every shard's counts: matches by status, and 'ended:<reason>' totals."""
        try:
            pipe = (await self.client()).pipeline(transaction=False)
            for shard in range(redis_keys.SHARDS):
                pipe.hgetall(self._keys.shard(shard)[2])
            found: list[dict[bytes, bytes]] = await pipe.execute()
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        return [(name.decode(), int(count)) for held in found for name, count in held.items()]

    # -- seeking ---------------------------------------------------------------------------

    async def seek(
        self,
        game: str,
        version: str,
        room: str | None,
        now: float,
        token: str | None = None,
        control: TimeControl | None = None,
        player: str | None = None,
        contact: str | None = None,
    ) -> Ticket:
        """Joins the oldest compatible waiting match, or opens a new one; then lists it under
        the player key, in a step of its own (repeated by a repeated seek)."""
        own = token is not None
        token = token if token is not None else new_token()
        digest = hash_token(token)
        clock = ("", "") if control is None else (control.key, control.json().decode())
        seeker = (digest, "" if player is None else hash_token(player), contact or "")
        if seeker[1]:
            await self.players.check(seeker[1], digest)
        try:
            if room:
                ticket = await self._seek_room(game, version, room, now, token, seeker, own, clock)
            else:
                ticket = await self._seek_queue(game, version, now, token, seeker, own, clock)
        except _Refusal as refusal:
            raise _seek_error(refusal, game, version, room, self.settings, control) from None
        if seeker[1]:
            await self.players.add(seeker[1], ticket.match, now)
        return ticket

    async def _seek_queue(
        self, game: str, version: str, now: float, token: str, seeker: tuple[str, str, str],
        own: bool, clock: tuple[str, str],
    ) -> Ticket:  # fmt: skip
        """Pairs through the game's queue: a game script picks, a match script joins. Seeks
        of the seeker's own player key are skipped, and put back at the queue's head."""
        keys = GameKeys(self.prefix, game, f"{version}~{clock[0]}" if clock[0] else version)
        memo, flag = keys.memo(seeker[0]), "1" if own else "0"
        failed, mine = "", list[str]()
        try:
            while True:
                answer = await self._on_game(
                    _PAIR, keys, now, memo, self.settings.max_waiting, flag, failed,
                    mine[-1] if mine else "", span=self._span(clock),
                )  # fmt: skip
                failed = ""
                if answer[0] == b"open":
                    return await self._open_queued(
                        keys, game, version, now, token, seeker, own, clock, mine
                    )
                match = answer[1].decode()
                seat = await self._join(match, now, seeker)
                if seat == _SAME:
                    mine.append(match)
                elif seat is not None:
                    if answer[0] == b"join":
                        await self._unlist(keys, match, queued=False)
                    return Ticket(match, seat, token)
                else:
                    failed = match
        finally:
            if mine:
                await self._call(_REQUEUE, [keys.queue, keys.waiting], [repr(float(now)), 0, *mine])

    async def _open_queued(
        self, keys: GameKeys, game: str, version: str, now: float, token: str,
        seeker: tuple[str, str, str], own: bool, clock: tuple[str, str], mine: list[str],
    ) -> Ticket:  # fmt: skip
        """Opens a match, then queues it, unless another seeker queued one meanwhile."""
        match = await self._open(game, version, "", now, seeker[0], clock, *seeker[1:])
        memo, flag = keys.memo(seeker[0]), "1" if own else "0"
        while True:
            skipped = mine[-1] if mine else ""
            answer = await self._on_game(
                _PUSH, keys, now, memo, match, flag, skipped, span=self._span(clock)
            )
            if answer[0] == b"ok":
                return Ticket(match, 0, token)
            other = answer[1].decode()
            seat = await self._join(other, now, seeker)
            if seat == _SAME:
                mine.append(other)
            elif seat is not None:
                await self._on_match(_ACT, match, now, seeker[0], "cancel", -1, "", 0, 0, "", 0, 0)
                if answer[0] == b"join":
                    await self._unlist(keys, other, queued=False)
                return Ticket(other, seat, token)
            else:
                await self._unlist(keys, other, queued=False)

    def _span(self, clock: tuple[str, str]) -> float:
        """Seconds a repeated seek of this control answers the same ticket."""
        return patience(TimeControl.from_key(clock[0]), self.settings.grace)

    async def _open(
        self, game: str, version: str, room: str, now: float, digest: str,
        clock: tuple[str, str], player: str = "", contact: str = "",
    ) -> str:  # fmt: skip
        """Opens a waiting match for a seeker (its token's digest, its player key's digest
        and contact, '' for none); returns its id."""
        while True:
            match = redis_keys.new_id()
            try:
                await self._on_match(
                    _OPEN, match, now, digest, game, version, room, *clock, player, contact
                )
            except _Refusal as refusal:
                if refusal.code == "collision":  # a fresh id already taken: draw another
                    continue
                raise
            return match

    async def _join(self, match: str, now: float, seeker: tuple[str, str, str]) -> int | None:
        """Takes a seat of a waiting match; None when it can no longer be joined, _SAME when
        its seat was taken with the seeker's own player key."""
        first = model.draw_first()
        answer = await self._on_match(_JOIN, match, now, seeker[0], first, *seeker[1:])
        if answer[0] == b"same":
            return _SAME
        if answer[0] != b"ok":
            return None
        self.tell(match, answer[2:], 1)
        return int(answer[1])

    def tell(self, match: str, tail: list[Any], seq: int) -> None:
        """Tells the turn sink of the notice a script answered (tail: 'n', seat, contact, game,
        due in ms; empty for none) for event seq."""
        sink = self.turns
        if sink is not None and len(tail) == 5 and tail[0] == b"n":
            seat, contact, game, due = (_text(value) for value in tail[1:])
            sink(TurnNotice(match, game, int(seat), seq, contact, int(due) / 1000))

    # -- player keys (relay.store.redis.players) ------------------------------------------------

    async def player_matches(self, player: str, now: float) -> list[PlayerMatch]:
        """Returns the matches the player key seated that the store still holds."""
        return await self.players.matches(hash_token(player), now)

    async def _unlist(self, keys: GameKeys, match: str, *, queued: bool = True) -> None:
        """Removes a match that no longer waits from its game's waiting set (and queue)."""
        if queued:
            await self._call(_UNLIST, [keys.queue, keys.waiting], [match])
        else:
            try:
                await (await self.client()).zrem(keys.waiting, match)
            except _DOWN as exc:
                raise self._unavailable(exc) from None

    async def _seek_room(
        self, game: str, version: str, room: str, now: float, token: str,
        seeker: tuple[str, str, str], own: bool, clock: tuple[str, str],
    ) -> Ticket:  # fmt: skip
        """Seeks in a private room: one script on the room's shard, and the waiting limit
        checked on the game's keys before a match is opened."""
        shard = redis_keys.room_shard(game, room)
        game_keys = GameKeys(self.prefix, game, version)
        match = redis_keys.new_id(shard)
        tagged = self._keys.tagged(match)
        room_key = f"{tagged}r:{game}:{room}"
        digest = seeker[0]
        memo = f"{tagged}t:{digest}"
        may_open = "0"
        while True:
            args = self._match_args(
                tagged, match, now, game, version, room, digest, model.draw_first(),
                "1" if own else "0", may_open, *clock, *seeker[1:],
            )  # fmt: skip
            try:
                answer = await self._call(_ROOM, [room_key, memo], args)
            except _Refusal as refusal:
                if may_open == "1":
                    await self._unlist(game_keys, match, queued=False)
                if refusal.code == "collision":
                    match = redis_keys.new_id(shard)
                    continue
                raise
            dropped = answer[-1].decode()
            if dropped:
                await self._unlist(game_keys, dropped, queued=False)
            if answer[0] == b"open":
                limit = self.settings.max_waiting
                await self._call(_RESERVE, [game_keys.waiting], [repr(float(now)), limit, match])
                may_open = "1"
                continue
            found, seat = answer[1].decode(), int(answer[2])
            self.tell(found, answer[3:-1], 1)
            if seat == 1:
                await self._unlist(game_keys, found, queued=False)
            if may_open == "1" and found != match:
                await self._unlist(game_keys, match, queued=False)
            return Ticket(found, seat, token)

    # -- writing ---------------------------------------------------------------------------

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""
        after = action.after if action.after is not None else -1
        move = action.move
        write = hashlib.sha256(move.encode("utf-8", "surrogatepass")).hexdigest()
        text = orjson.dumps(move) if action.kind == "move" else b""
        try:
            answer = await self._on_match(
                _ACT, match, now, hash_token(token), action.kind, after,
                f"{int(action.end)}{int(action.agree)}:{write}", int(action.agree),
                int(action.end), text, self.settings.max_events, after + 1,
            )  # fmt: skip
        except _Refusal as refusal:
            raise _act_error(refusal, match, after, self.settings.max_events) from None
        if len(answer) == 4:  # a cancel that expired the match: unlist it
            game = GameKeys(self.prefix, answer[2].decode(), answer[3].decode())
            await self._unlist(game, match)
        seq = int(answer[1])
        if len(answer) == 7:  # the partner's turn notice, in a correspondence match
            self.tell(match, answer[2:], seq)
        return seq

    # -- rematches (relay.store.redis.rematch) --------------------------------------------------

    async def rematch(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads a match's rematch, or has the token's seat offer or decline one."""
        if op != "read" and token is None:
            raise RelayError("auth/required")
        digest = "" if token is None else hash_token(token)
        return await self._rematches.rematch(match, digest, op, now)

    async def rematch_wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        found: list[Rematch] = []

        async def ready() -> bool:
            at = now + loop.time() - start
            current = await self.rematch(match, None, "read", at)
            found[:] = [current]
            due = lapse_at(current, self.settings.grace)
            return current.version > after or (due is not None and due < at)

        left = timeout
        while True:
            await self._wait_notice(self._rematches.channel(match), ready, left)
            current = found[-1]
            due = lapse_at(current, self.settings.grace)
            left = timeout - (loop.time() - start)
            if current.version > after or due is None or left <= 0:
                return current
            # An offer stands that lapses before the wait is over: wait until then.
            left = min(left, due - (now + loop.time() - start) + 0.05)
            if left <= 0:
                return await self.rematch(match, None, "read", now + loop.time() - start)

    # -- lobby (relay.store.redis.lobby) ---------------------------------------------------------

    async def lobby_add(self, game: str, kind: LobbyKind, match: str, now: float) -> None:
        """Lists a match in a game's lobby."""
        await self._lobbies.add(game, kind, match, now)

    async def lobby_promote(self, game: str, match: str, now: float) -> None:
        """Moves a listed open seek to the live list."""
        await self._lobbies.move(game, match, "open", "live", repr(float(now)))

    async def lobby(self, game: str) -> Lobby:
        """Reads a game's lobby, healing entries whose match changed."""
        return await self._lobbies.read(game)

    async def lobby_wait(self, game: str, after: int, timeout: float) -> None:
        """Returns once the game's lobby version is above after, or after timeout."""

        async def ready() -> bool:
            return await self._lobbies.version(game) > after

        await self._wait_notice(self._lobbies.channel(game), ready, timeout)

    # -- housekeeping ----------------------------------------------------------------------

    async def reap(self, now: float, batch: int = 200, most: int = 5000) -> int:
        """Ends matches whose seats stopped polling, drops stale seeks, forgets old matches.

        Only matches whose deadline has passed are looked at (a sorted set per shard), each
        change is atomic, and every relay process may run it at once: a match is changed
        only once. Each call looks at every shard."""
        counts = await asyncio.gather(
            *(self._reap_shard(shard, now, batch, most) for shard in range(redis_keys.SHARDS))
        )
        if self._notes is not None:
            self._notes.sweep()
        return sum(counts)

    async def _reap_shard(self, shard: int, now: float, batch: int, most: int) -> int:
        """reap() on one shard (the shards' first calls go to Redis in one pipeline)."""
        tagged, deadlines, _ = self._keys.shard(shard)
        s = self.settings
        args = [tagged, "", repr(float(now)), repr(s.grace), repr(s.keep), batch]
        changed = 0
        for _ in range(max(1, most // batch)):
            done, looked, expired, gone = await self._call(_REAP, [deadlines], args)
            changed += int(done)
            for index in range(0, len(expired), 3):
                id_, game, version = (value.decode() for value in expired[index : index + 3])
                await self._unlist(GameKeys(self.prefix, game, version), id_)
            for index in range(0, len(gone), 3):
                id_, *players = (value.decode() for value in gone[index : index + 3])
                await self.players.forget(id_, players)
            if int(looked) < batch:
                break
        return changed

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self._closing = True
        if self._notes is not None:
            self._notes.wake_all()

    def hook_state(self) -> RedisHookState:
        """Returns the webhook's state, in Redis under the store's prefix (see
        Store.hook_state)."""
        if self._hooks is None:
            self._hooks = RedisHookState(self.client, self.prefix)
        return self._hooks

    async def close(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        self._closing = True
        if self._notes is not None:
            await self._notes.close()
        if self._batch is not None:
            await self._batch.close()
        for client in self._clients:
            await client.aclose()


def open_url(url: str, settings: StoreSettings) -> RedisStore:
    """Returns a store on the Redis url names (see RedisStore.from_url, relay.store.open)."""
    return RedisStore.from_url(url, settings)


@contextlib.contextmanager
def _registered(channel: Channel, loop: asyncio.AbstractEventLoop) -> Iterator[Waiter]:
    """Registers a waiter on the channel for the block (notices wake it with True)."""
    waiter: Waiter = loop.create_future()
    channel.waiters.add(waiter)
    try:
        yield waiter
    finally:
        channel.waiters.discard(waiter)


async def _sleep(waiter: Waiter, seconds: float) -> bool:
    """Returns True once a notice wakes the waiter, or False after `seconds`."""
    timer = asyncio.get_running_loop().call_later(seconds, _time_out, waiter)
    try:
        return await waiter
    finally:
        timer.cancel()


SENTINEL_SCHEME = "redis+sentinel://"
"""The scheme of a store URL naming Sentinels and the primary they watch:
redis+sentinel://[:password@]host:port[,host:port...]/name[?db=N]."""


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


def _time_out(waiter: Waiter) -> None:
    """Ends a wait's sleep, as not woken by a notification."""
    if not waiter.done():
        waiter.set_result(False)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _loading(exc: ResponseError) -> bool:
    """Whether Redis refused for now: still loading its data, a replica without its master,
    a cluster without a master for the slot, or a primary without the replicas that
    min-replicas-to-write asks for."""
    return str(exc).startswith(("LOADING", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "NOREPLICAS"))


class _Refusal(Exception):
    """Raised when a script refuses a call: the error code and what the message needs."""

    def __init__(self, code: str, detail: str | int | None) -> None:
        super().__init__(code, detail)
        self.code = code
        self.detail = detail


def _refusal(answer: list[Any]) -> _Refusal:
    detail = answer[2] if len(answer) > 2 else None
    return _Refusal(answer[1].decode(), detail.decode() if isinstance(detail, bytes) else detail)


def _read_error(refusal: _Refusal, match: str, after: int = 0) -> RelayError:
    if refusal.code == "match/unknown":
        return RelayError("match/unknown", f"No match {match!r}.")
    if refusal.code == "match/behind":
        return behind(after, int(refusal.detail or 0))
    return RelayError(refusal.code)


def _seek_error(
    refusal: _Refusal, game: str, version: str, room: str | None, settings: StoreSettings,
    control: TimeControl | None,
) -> RelayError:  # fmt: skip
    if refusal.code == "limit/waiting":
        return RelayError(
            "limit/waiting",
            f"{settings.max_waiting} matches of {game!r} are waiting.",
            retry_after=settings.grace,
        )
    if refusal.code == "room/version_mismatch":
        return RelayError(
            "room/version_mismatch",
            f"Room {room!r} waits for {game!r} version {refusal.detail!r}, not {version!r}.",
        )
    if refusal.code == "room/control_mismatch":
        waiting = TimeControl.from_key(str(refusal.detail or ""))
        return control_mismatch(room or "", waiting, control)
    if refusal.code == "room/full":
        return RelayError("room/full", f"Room {room!r} of {game!r} is full.")
    if refusal.code == "room/same_player":
        return same_player(room or "")
    return RelayError(refusal.code)


def _act_error(refusal: _Refusal, match: str, after: int, max_events: int) -> RelayError:
    if refusal.code == "turn/stale":
        return RelayError(
            "turn/stale", f"'after' is {after} but the last event is {refusal.detail}."
        )
    if refusal.code == "turn/not_yours" and refusal.detail == "confirm":
        return RelayError("turn/not_yours", "The partner confirms the end, not its sender.")
    if refusal.code == "match/too_long":
        return too_long(max_events)
    if refusal.code == "match/finished":
        return finished(refusal.detail == "timeout")
    return _read_error(refusal, match)
