"""Wake-ups for the Redis store: each relay process hears only the matches it waits on.

Each match has a sharded pub/sub channel (`relay.redis_keys`); a script that appends an event
publishes 'seq event' on it. A process subscribes to a match's channel when a poll first
waits on that match, and unsubscribes once no poll has waited on it for `linger` seconds, so
the cost of a move grows with the processes that wait on its match, not with all processes.

What a wait may trust: while a channel's subscription is live (confirmed by Redis, and not
broken since), every event appended to the match after that moment is heard, in order. So a
wait whose cursor is at or past the newest event heard needs no read of the log; a wait on a
channel whose subscription is not live yet reads the log once it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError

__all__ = ["Channel", "Notifier"]

log = logging.getLogger("relay.redis")

Connect = Callable[[], Awaitable[Any]]
"""Opens a fresh connection to Redis for the subscriptions (a redis-py Connection)."""


class Channel:
    """One match's channel, as this process follows it."""

    __slots__ = ("heard", "idle_since", "live", "name", "users", "waiters")

    def __init__(self, name: bytes) -> None:
        self.name = name
        self.waiters: set[asyncio.Future[bool]] = set()
        """The waits sleeping on the channel: each is woken with True."""
        self.users = 0
        """How many waits follow the channel now."""
        self.idle_since = 0.0
        self.live = False
        """Whether the subscription is confirmed and unbroken since."""
        self.heard: tuple[int, bytes] | None = None
        """The newest event heard since the subscription went live: its number and text."""

    def wake(self) -> None:
        """Wakes every wait on the channel."""
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(True)


class Notifier:
    """Subscribes to the channels of the matches waited on, and wakes their waits."""

    def __init__(self, connect: Connect, linger: float = 10.0) -> None:
        self._connect = connect
        self.linger = linger
        """Seconds a channel stays subscribed after its last wait ended."""
        self._channels: dict[bytes, Channel] = {}
        self._subscribe: list[bytes] = []
        self._unsubscribe: list[bytes] = []
        self._flushing = False
        self._conn: Any = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._swept = 0.0
        self._sending: set[asyncio.Task[None]] = set()

    # -- following channels ----------------------------------------------------------------

    def follow(self, name: str) -> Channel:
        """Returns the channel, subscribing to it if this process does not yet."""
        key = name.encode()
        channel = self._channels.get(key)
        if channel is None:
            channel = self._channels[key] = Channel(key)
            self._request(self._subscribe, key)
        channel.users += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._listen(), name="redis-notifier")
        return channel

    def leave(self, channel: Channel) -> None:
        """Ends one wait's interest in the channel (it stays subscribed for a while)."""
        channel.users -= 1
        if channel.users <= 0:
            channel.idle_since = time.monotonic()
            self.sweep(channel.idle_since)

    def sweep(self, now: float | None = None) -> None:
        """Unsubscribes the channels nobody waited on for `linger` seconds (at most once a
        second)."""
        now = time.monotonic() if now is None else now
        if now - self._swept < 1.0:
            return
        self._swept = now
        cutoff = now - self.linger
        for key, channel in list(self._channels.items()):
            if channel.users <= 0 and channel.idle_since < cutoff:
                del self._channels[key]
                self._request(self._unsubscribe, key)

    def wake_all(self) -> None:
        """Wakes every wait this process holds."""
        for channel in self._channels.values():
            channel.wake()

    async def close(self) -> None:
        """Stops listening and closes the subscriptions' connection."""
        self._closing = True
        self.wake_all()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # -- talking to Redis ------------------------------------------------------------------

    def _request(self, pending: list[bytes], key: bytes) -> None:
        pending.append(key)
        if not self._flushing and self._conn is not None:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Sends the subscriptions asked for in this loop turn, one command per channel (a
        cluster takes channels of one slot per command)."""
        self._flushing = False
        conn = self._conn
        if conn is None:
            return
        commands = [("SSUBSCRIBE", key) for key in self._subscribe]
        commands += [("SUNSUBSCRIBE", key) for key in self._unsubscribe]
        self._subscribe.clear()
        self._unsubscribe.clear()
        if commands:
            task = asyncio.create_task(self._send(conn, commands))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, conn: Any, commands: list[tuple[str, bytes]]) -> None:
        with contextlib.suppress(RedisError, OSError):
            await conn.send_packed_command(conn.pack_commands(commands), check_health=False)

    async def _listen(self) -> None:
        """Reads the subscriptions' replies and messages; reconnects by itself."""
        pause = 0.1
        while not self._closing:
            conn = None
            try:
                conn = await self._connect()
                await conn.connect()
                if pause > 0.1:
                    log.warning("Redis notifications are back")
                pause = 0.1
                self._subscribe[:] = list(self._channels)
                self._unsubscribe.clear()
                self._conn = conn
                self._flush()
                while True:
                    self._heard(await conn.read_response())
            except (RedisError, OSError) as exc:
                if pause == 0.1:
                    log.warning("Redis notifications lost (%s); polls re-read the log", exc)
            finally:
                self._conn = None
                for channel in self._channels.values():
                    channel.live = False
                    channel.heard = None
                self.wake_all()
                if conn is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await conn.disconnect()
            await asyncio.sleep(pause)
            pause = min(2.0, pause * 2)

    def _heard(self, reply: Any) -> None:
        """Handles one reply: a message, or the confirmation of a (un)subscription."""
        kind, key, data = reply[0], reply[1], reply[2]
        channel = self._channels.get(key)
        if channel is None:
            return
        if kind == b"smessage":
            if channel.live and data != b"x":
                seq, _, event = data.partition(b" ")
                channel.heard = (int(seq), event)
            channel.wake()
        elif kind == b"ssubscribe":
            channel.live = True
            channel.heard = None
            channel.wake()  # anything appended before now: the waits read the log
        elif kind == b"sunsubscribe":
            # Not asked for (the channel is still followed): its slot moved; subscribe again.
            channel.live = False
            channel.heard = None
            channel.wake()
            self._request(self._subscribe, key)
