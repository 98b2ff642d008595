"""The Redis store: matches shared by every relay process on every box, durable with AOF.

Each change to a match is one Lua script (see `relay.redis_scripts`), so two relay processes
never pair one seeker twice, never accept two moves for one turn and never give two events
one number. A waiting poll is woken by a Redis pub/sub notification and then re-reads the
log; it also re-reads every `recheck` seconds, so a lost notification only delays an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ConstantBackoff, NoBackoff
from redis.exceptions import (
    ConnectionError as RedisConnectionError,
)
from redis.exceptions import (
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
)
from redis.exceptions import (
    TimeoutError as RedisTimeoutError,
)

from relay import redis_scripts, store
from relay.errors import RelayError
from relay.lobby import Lobby, LobbyKind
from relay.redis_lobby import RedisLobbies
from relay.redis_rematch import RedisRematches
from relay.rematch import Rematch, RematchOp, lapse_at
from relay.store import (
    Action,
    Event,
    Immediate,
    MatchInfo,
    Status,
    StoreSettings,
    Ticket,
    hash_token,
    move_event,
    new_match_id,
    new_token,
    too_long,
)

__all__ = ["DEFAULT_PREFIX", "UNAVAILABLE", "RedisStore"]

log = logging.getLogger("relay.redis")

DEFAULT_PREFIX = "movewire:"
"""The prefix of every key the store writes (several relays may share one Redis by prefix)."""

UNAVAILABLE = "The match store (Redis) cannot be reached; retry shortly."
"""The message of the 503 answer while Redis is down, restarting or loading its data."""

_DOWN = (RedisConnectionError, RedisTimeoutError, ReadOnlyError, OutOfMemoryError, OSError)
"""Redis failures that mean 'not now' (503) rather than a bug (500)."""

_HEARD_LIMIT = 100_000
"""Matches whose newest notified event is remembered (then the memory starts afresh)."""

_RETRY_AFTER = 1.0
"""Seconds a client is told to wait before retrying while Redis is unavailable."""

_T = TypeVar("_T")


class RedisStore:
    """Keeps matches in Redis: any relay process sharing it may answer any request."""

    immediate: Immediate | None = None
    """Every call waits on Redis: endpoints run as tasks (see Store.immediate)."""

    def __init__(
        self,
        client: aioredis.Redis,
        settings: StoreSettings | None = None,
        *,
        listener: aioredis.Redis | None = None,
        prefix: str = DEFAULT_PREFIX,
        recheck: float = 5.0,
    ) -> None:
        self.settings = settings or StoreSettings()
        self.prefix = prefix
        self.recheck = recheck
        """Seconds a waiting poll trusts pub/sub before it re-reads the log anyway."""
        self._redis = client
        self._listener_client = listener or client
        self._seek = client.register_script(redis_scripts.SEEK)
        self._poll = client.register_script(redis_scripts.POLL)
        self._act = client.register_script(redis_scripts.ACT)
        self._reap = client.register_script(redis_scripts.REAP)
        self._waiters: dict[str, set[asyncio.Future[None]]] = {}
        self._heard: dict[str, tuple[int, bytes]] = {}
        """The newest event each notification told of, by match, while subscribed."""
        self._subscribed = False
        """Whether notifications are arriving (else every wait reads the log first)."""
        self._listener: asyncio.Task[None] | None = None
        self._closing = False
        self._down = False
        self._rematches = RedisRematches(self)
        self._lobbies = RedisLobbies(self)

    @classmethod
    def from_url(
        cls,
        url: str,
        settings: StoreSettings | None = None,
        *,
        prefix: str = DEFAULT_PREFIX,
        recheck: float = 5.0,
    ) -> RedisStore:
        """Returns a store on the Redis at url: redis://host:port/db, rediss://… or unix:///path."""
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
            # The listener reconnects by itself (and wakes every poll) instead.
            retry=Retry(NoBackoff(), 0),
            health_check_interval=5,
        )
        return cls(client, settings, listener=listener, prefix=prefix, recheck=recheck)

    # -- calling Redis ---------------------------------------------------------------------

    def _args(self, now: float, *rest: object) -> list[Any]:
        s = self.settings
        return [self.prefix, repr(float(now)), repr(s.grace), repr(s.keep), *rest]

    async def _call(self, script: Any, args: list[Any]) -> Any:
        """Runs a script and returns its answer, or raises _Refusal with the error it gave.

        A Redis that cannot answer becomes RelayError('server/unavailable')."""
        try:
            answer = await script(args=args)
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        if isinstance(answer, list) and answer and answer[0] == b"e":
            raise _refusal(answer)
        return answer

    @property
    def redis(self) -> aioredis.Redis:
        """The client the store's scripts run on."""
        return self._redis

    async def call(self, script: Any, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """Runs a script with its keys passed as KEYS (the rematch and lobby scripts, which
        name every key they touch); a refusal becomes its RelayError."""
        try:
            answer = await script(keys=list(keys), args=list(args))
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        if isinstance(answer, list) and answer and answer[0] == b"e":
            raise RelayError(_refusal(answer).code)
        return answer

    async def guard(self, reply: Awaitable[_T]) -> _T:
        """Awaits a plain Redis reply; a Redis that cannot answer becomes server/unavailable."""
        try:
            found = await reply
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        return found

    async def _wait_notice(
        self, key: str, ready: Callable[[], Awaitable[bool]], timeout: float
    ) -> None:
        """Returns once ready() answers true, re-asking at each notification of key on the
        wake channel (and every `recheck` seconds), or after timeout."""
        self._start_listener()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.setdefault(key, set()).add(waiter)
            try:
                # Asked after registering: a change after this read finds the waiter.
                if await ready() or self._closing:
                    return
                left = deadline - loop.time()
                if left <= 0:
                    return
                await asyncio.wait((waiter,), timeout=min(left, self.recheck))
            finally:
                self._forget(key, waiter)

    def _unavailable(self, exc: BaseException) -> RelayError:
        if not self._down:
            self._down = True
            log.warning("Redis unavailable, answering 503 until it is back: %s", exc)
        return RelayError("server/unavailable", UNAVAILABLE, retry_after=_RETRY_AFTER)

    def _up(self) -> None:
        if self._down:
            self._down = False
            log.warning("Redis is back")

    # -- reading ---------------------------------------------------------------------------

    async def poll(
        self, match: str, token: str | None, after: int, now: float
    ) -> tuple[int | None, list[Event]]:
        """Returns the reader's seat and the events above after; marks a seat present."""
        digest = "" if token is None else hash_token(token)
        try:
            _, seat, events = await self._call(self._poll, self._args(now, match, digest, after))
        except _Refusal as refusal:
            raise _read_error(refusal, match) from None
        return (None if seat < 0 else int(seat)), list(events)

    async def wait(self, match: str, after: int, timeout: float) -> list[Event]:
        """Returns the events above after once there are any, or [] after timeout."""
        if timeout <= 0 or self._closing:
            return (await self.poll(match, None, after, 0.0))[1]
        self._start_listener()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        # While subscribed, a match whose newest notified event is at most `after` needs no
        # read first: the notification of any later event finds the waiter registered below.
        heard = self._heard.get(match)
        read = not (self._subscribed and heard is not None and heard[0] <= after)
        while True:
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.setdefault(match, set()).add(waiter)
            try:
                if read:
                    # Read after registering: an event appended before now is in this read,
                    # and the notification of any later one finds the waiter.
                    events = (await self.poll(match, None, after, 0.0))[1]
                    if events or self._closing:
                        return events
                read = True
                left = deadline - loop.time()
                if left <= 0:
                    return []
                await asyncio.wait((waiter,), timeout=min(left, self.recheck))
                heard = self._heard.get(match)
                if waiter.done() and heard is not None and heard[0] == after + 1:
                    return [heard[1]]  # exactly the next event: no read needed
            finally:
                self._forget(match, waiter)

    async def info(self, match: str) -> MatchInfo:
        """Returns a summary of the match."""
        fields = ("game", "version", "room", "status", "turn", "last", "first")
        try:
            reply = self._redis.hmget(f"{self.prefix}m:{match}", list(fields))
            values = await cast(Awaitable[list[bytes | None]], reply)
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        game, version, room, status, turn, last, first = (
            None if value is None else value.decode() for value in values
        )
        if status is None:
            raise RelayError("match/unknown", f"No match {match!r}.")
        if status == Status.EXPIRED:
            raise RelayError("match/expired")
        return MatchInfo(
            match=match,
            game=game or "",
            version=version or "",
            room=room,
            status=Status(status),
            turn=int(turn) if turn and status == Status.PLAYING else None,
            last=int(last or 0),
            first=int(first) if first else None,
        )

    async def counts(self) -> dict[Status, int]:
        """Returns how many matches are in each status."""
        try:
            reply = self._redis.hgetall(f"{self.prefix}counts")
            found = await cast(Awaitable[dict[bytes, bytes]], reply)
        except _DOWN as exc:
            raise self._unavailable(exc) from None
        self._up()
        counts = dict.fromkeys(Status, 0)
        for status, count in found.items():
            counts[Status(status.decode())] = int(count)
        return counts

    # -- writing ---------------------------------------------------------------------------

    async def seek(
        self, game: str, version: str, room: str | None, now: float, token: str | None = None
    ) -> Ticket:
        """Joins the oldest compatible waiting match, or opens a new one."""
        own = token is not None
        token = token if token is not None else new_token()
        while True:
            args = self._args(
                now,
                game,
                version,
                room or "",
                self.settings.max_waiting,
                new_match_id(),
                hash_token(token),
                store.draw_first(),
                "1" if own else "0",
            )
            try:
                _, match, seat = await self._call(self._seek, args)
            except _Refusal as refusal:
                if refusal.code == "collision":  # a fresh id already taken: draw another
                    continue
                raise _seek_error(refusal, game, version, room, self.settings) from None
            return Ticket(match.decode(), int(seat), token)

    async def act(self, match: str, token: str, action: Action, now: float) -> int:
        """Applies a seat's action once and returns the number of its event."""
        after = action.after if action.after is not None else -1
        seq = max(after, 0) + 1
        write = hashlib.sha256(action.move.encode("utf-8", "surrogatepass")).hexdigest()
        moves: tuple[bytes, bytes] = (b"", b"")
        if action.kind == "move":
            moves = (
                move_event(seq, 0, action.move, action.end),
                move_event(seq, 1, action.move, action.end),
            )
        args = self._args(
            now,
            match,
            hash_token(token),
            action.kind,
            after,
            f"{int(action.end)}{int(action.agree)}:{write}",
            int(action.agree),
            int(action.end),
            *moves,
            self.settings.max_events,
        )
        try:
            _, seq = await self._call(self._act, args)
        except _Refusal as refusal:
            raise _act_error(refusal, match, after, self.settings.max_events) from None
        return int(seq)

    # -- rematches (relay.redis_rematch) --------------------------------------------------

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
            await self._wait_notice(f"~x:{match}", ready, left)
            current = found[-1]
            due = lapse_at(current, self.settings.grace)
            left = timeout - (loop.time() - start)
            if current.version > after or due is None or left <= 0:
                return current
            # An offer stands that lapses before the wait is over: wait until then.
            left = min(left, due - (now + loop.time() - start) + 0.05)
            if left <= 0:
                return await self.rematch(match, None, "read", now + loop.time() - start)

    # -- lobby (relay.redis_lobby) ---------------------------------------------------------

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

        await self._wait_notice(f"~l:{game}", ready, timeout)

    # -- housekeeping ----------------------------------------------------------------------

    async def reap(self, now: float, batch: int = 200, most: int = 5000) -> int:
        """Ends matches whose seats stopped polling, drops stale seeks, forgets old matches.

        Only matches whose deadline has passed are looked at (a sorted set), each change is
        atomic, and every relay process may run it at once: a match is changed only once."""
        changed = 0
        for _ in range(max(1, most // batch)):
            done, looked = await self._call(self._reap, self._args(now, batch))
            changed += int(done)
            if int(looked) < batch:
                break
        return changed

    async def wake_all(self) -> None:
        """Answers every wait held in this process at once, and holds no new ones."""
        self._closing = True
        self._wake_everyone()

    async def close(self) -> None:
        """Stops listening for notifications and closes the connections to Redis."""
        self._closing = True
        self._wake_everyone()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        await self._redis.aclose()
        if self._listener_client is not self._redis:
            await self._listener_client.aclose()

    # -- notifications ---------------------------------------------------------------------

    def _start_listener(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.create_task(self._listen(), name="redis-store-listener")

    async def _listen(self) -> None:
        """Wakes the waits of each match named on the channel; reconnects by itself."""
        channel = f"{self.prefix}wake"
        pause = 0.1
        while True:
            pubsub = self._listener_client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel)
                if pause > 0.1:
                    log.warning("Redis notifications are back")
                pause = 0.1
                self._heard.clear()
                self._subscribed = True
                # Anything published before the subscription took effect: re-read.
                self._wake_everyone()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._notified(message["data"])
            except (RedisError, OSError) as exc:
                if pause == 0.1:
                    log.warning("Redis notifications lost (%s); polls re-read the log", exc)
                self._subscribed = False
                self._wake_everyone()
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(pause)
            pause = min(2.0, pause * 2)

    def _notified(self, data: bytes) -> None:
        """Handles one notification: 'id seq event', or a bare id."""
        head, _, rest = data.partition(b" ")
        match = head.decode()
        if rest:
            seq, _, event = rest.partition(b" ")
            if len(self._heard) > _HEARD_LIMIT:
                self._heard.clear()  # forgetting only costs a read
            self._heard[match] = (int(seq), event)
        else:
            self._heard.pop(match, None)
        self._wake(match)

    def _wake(self, match: str) -> None:
        for waiter in self._waiters.get(match, ()):
            if not waiter.done():
                waiter.set_result(None)

    def _wake_everyone(self) -> None:
        for waiters in self._waiters.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def _forget(self, match: str, waiter: asyncio.Future[None]) -> None:
        waiters = self._waiters.get(match)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del self._waiters[match]


class _Refusal(Exception):
    """Raised when a script refuses a call: the error code and what the message needs."""

    def __init__(self, code: str, detail: str | int | None) -> None:
        super().__init__(code, detail)
        self.code = code
        self.detail = detail


def _refusal(answer: list[Any]) -> _Refusal:
    detail = answer[2] if len(answer) > 2 else None
    return _Refusal(answer[1].decode(), detail.decode() if isinstance(detail, bytes) else detail)


def _read_error(refusal: _Refusal, match: str) -> RelayError:
    if refusal.code == "match/unknown":
        return RelayError("match/unknown", f"No match {match!r}.")
    return RelayError(refusal.code)


def _seek_error(
    refusal: _Refusal, game: str, version: str, room: str | None, settings: StoreSettings
) -> RelayError:
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
    if refusal.code == "room/full":
        return RelayError("room/full", f"Room {room!r} of {game!r} is full.")
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
    return _read_error(refusal, match)
