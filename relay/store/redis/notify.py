"""Wake-ups for the Redis store: each relay process hears only the matches it waits on.

Each match has two sharded pub/sub channels (`relay.store.redis.keys`), one for its odd events and
one for its even ones; a script that appends an event publishes 'seq event' on the channel
of its number. A poll waiting for event N follows the channel of N's parity: a process
subscribes to it when a poll first waits there, and unsubscribes once no poll has waited on
it for `linger` seconds. In a match each seat waits for the events of one parity (its
partner's moves), so a move is heard by the one process that waits for it, not by every
process that waits on the match, nor by all processes.

What a wait may trust: while a channel's subscription is live (confirmed by Redis, and not
broken since), every event appended to the match after that moment is heard, in order. So a
wait whose cursor is at or past the newest event heard needs no read of the log; a wait on a
channel whose subscription is not live yet reads the log once it is.

In a Redis Cluster a sharded channel is served by the master of its slot: the notifier keeps
one connection per master it follows channels on, and moves a channel to its new master when
the slot moves (Redis then ends the subscription) or the master fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse, RedisError, ResponseError

from relay.store.redis.dial import Opener
from relay.store.redis.pipe import Feed
from relay.store.redis.wire import MORE, pack

__all__ = ["Channel", "Notifier", "Route", "Waiter"]

log = logging.getLogger("relay.redis")

Waiter = asyncio.Future[bool]
"""A wait sleeping on a channel: woken with True by a notice."""

Route = Callable[[bytes], tuple[str, Opener]]
"""Tells which node serves a channel: its name, and how to open a connection to it."""


class Channel:
    """One match's channel, as this process follows it."""

    __slots__ = (
        "heard", "idle_since", "link", "live", "name", "pairings", "tables", "users", "waiters",
    )  # fmt: skip

    def __init__(self, name: bytes) -> None:
        self.name = name
        self.waiters: set[Waiter] = set()
        """The waits sleeping on the channel: each is woken with True."""
        self.users = 0
        """How many waits follow the channel now."""
        self.idle_since = 0.0
        self.live = False
        """Whether the subscription is confirmed and unbroken since."""
        self.heard: tuple[int, bytes] | None = None
        """The newest event heard since the subscription went live: its number and text."""
        self.link = ""
        """The name of the node the channel is subscribed on."""
        self.tables = 0
        """Table changes heard on the channel ('t'), counted so that a wait can tell one came."""
        self.pairings = 0
        """Pairings heard on the channel ('p': a second seeker joined the waiting match),
        counted so that a wait can tell one came and answer at once."""

    def wake(self) -> None:
        """Wakes every wait on the channel."""
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(True)

    def lost(self) -> None:
        """Marks the subscription broken (what was heard can no longer be trusted)."""
        self.live = False
        self.heard = None
        self.wake()


class Notifier:
    """Subscribes to the channels of the matches waited on, and wakes their waits."""

    def __init__(
        self,
        route: Route,
        linger: float = 10.0,
        refresh: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._route = route
        self._refresh = refresh
        """Reloads the cluster's map of slots to nodes (None for one Redis)."""
        self.linger = linger
        """Seconds a channel stays subscribed after its last wait ended."""
        self._channels: dict[bytes, Channel] = {}
        self._links: dict[str, _Link] = {}
        self._closing = False
        self._swept = 0.0
        self.messages = 0
        """Messages heard on the channels followed (one per event of a followed match)."""

    # -- following channels ----------------------------------------------------------------

    def follow(self, name: str) -> Channel:
        """Returns the channel, subscribing to it if this process does not yet."""
        key = name.encode()
        channel = self._channels.get(key)
        if channel is None:
            channel = self._channels[key] = Channel(key)
            self._subscribe(channel)
        channel.users += 1
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
                link = self._links.get(channel.link)
                if link is not None:
                    link.request("SUNSUBSCRIBE", key)

    def wake_all(self) -> None:
        """Wakes every wait this process holds."""
        for channel in self._channels.values():
            channel.wake()

    async def close(self) -> None:
        """Stops listening and closes the subscriptions' connections."""
        self._closing = True
        self.wake_all()
        for link in list(self._links.values()):
            await link.close()
        self._links.clear()

    # -- links to the nodes ----------------------------------------------------------------

    def _subscribe(self, channel: Channel) -> None:
        name, opener = self._route(channel.name)
        link = self._links.get(name)
        if link is None or link.closed:
            link = self._links[name] = _Link(self, name, opener)
        channel.link = name
        link.request("SSUBSCRIBE", channel.name)

    def on_link(self, name: str) -> list[Channel]:
        """Returns the channels followed on a node."""
        return [channel for channel in self._channels.values() if channel.link == name]

    async def moved(self, link: _Link) -> None:
        """Moves the channels of a node that failed or no longer serves their slots to the
        nodes that do now (after reloading the cluster's map)."""
        if self._refresh is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._refresh()
        for channel in self.on_link(link.name):
            if self._route(channel.name)[0] != link.name:
                channel.lost()
                self._subscribe(channel)
            elif not channel.live:
                link.request("SSUBSCRIBE", channel.name)  # again: a second one is harmless

    def heard(self, link: _Link, reply: Any) -> None:
        """Handles one reply on a link: a message, or a (un)subscription's confirmation."""
        kind, key, data = reply[0], reply[1], reply[2]
        channel = self._channels.get(key)
        if channel is None or channel.link != link.name:
            return
        if kind == b"smessage":
            self.messages += 1
            if data == b"t":
                channel.tables += 1
            elif data == b"p":
                channel.pairings += 1
            elif channel.live and data != b"x":
                seq, _, event = data.partition(b" ")
                channel.heard = (int(seq), event)
            channel.wake()
        elif kind == b"ssubscribe":
            channel.live = True
            channel.heard = None
            channel.wake()  # anything appended before now: the waits read the log
        elif kind == b"sunsubscribe":
            # Not asked for (the channel is still followed): its slot moved.
            channel.lost()
            link.resettle()

    @property
    def closing(self) -> bool:
        """Whether the notifier is closing."""
        return self._closing


def _ended(lost: asyncio.Future[Exception | None], _: Feed, exc: Exception | None) -> None:
    if not lost.done():
        lost.set_result(exc)


class _Link:
    """One connection to a node, on which the channels it serves are subscribed. Messages are
    read as they arrive, in the loop turn that reads them (relay.store.redis.pipe.Feed)."""

    def __init__(self, notifier: Notifier, name: str, opener: Opener) -> None:
        self._notifier = notifier
        self.name = name
        self._opener = opener
        self._transport: asyncio.Transport | None = None
        self._protocol: Feed | None = None
        self._hiredis: Any = None
        self._pending: list[tuple[str, bytes]] = []
        self._flushing = False
        self._resettling: asyncio.Task[None] | None = None
        self.closed = False
        self._task = asyncio.create_task(self._listen(), name=f"redis-notifier-{name}")

    def request(self, command: str, key: bytes) -> None:
        """Sends a (un)subscription in this loop turn's batch."""
        self._pending.append((command, key))
        if not self._flushing and self._transport is not None:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Sends the requests of this loop turn, one command per channel (a cluster takes
        channels of one slot per command)."""
        self._flushing = False
        transport = self._transport
        if transport is None or not self._pending:
            return
        commands: list[tuple[Any, ...]] = list(self._pending)
        self._pending = []
        try:
            transport.write(pack(commands))
        except (RuntimeError, OSError):  # closed meanwhile: the listener subscribes again
            transport.abort()

    def received(self, protocol: Feed, data: bytes) -> None:
        """Hands each whole reply to the notifier."""
        if protocol is not self._protocol:
            return
        reader, notifier = self._hiredis, self._notifier
        reader.feed(data)
        while True:
            try:
                reply = reader.gets()
            except InvalidResponse:
                if self._transport is not None:
                    self._transport.abort()
                return
            if reply is MORE:
                return
            if isinstance(reply, ResponseError):  # MOVED: a slot is served elsewhere now
                self.resettle()
            else:
                notifier.heard(self, reply)

    def resettle(self) -> None:
        """Moves this node's channels where their slots are served now (once at a time)."""
        if self._resettling is None or self._resettling.done():
            self._resettling = asyncio.create_task(self._notifier.moved(self))

    async def _listen(self) -> None:
        """Opens the connection and subscribes; reconnects by itself when it is lost, and
        gives its channels to other nodes when its node stops serving them."""
        pause = 0.1
        notifier = self._notifier
        loop = asyncio.get_running_loop()
        while not notifier.closing:
            if not notifier.on_link(self.name) and not self._pending:
                break  # nothing followed here any more
            transport = None
            try:
                lost: asyncio.Future[Exception | None] = loop.create_future()
                protocol = Feed(self.received, partial(_ended, lost))
                transport, self._hiredis = await self._opener(protocol)
                if pause > 0.1:
                    log.warning("Redis notifications are back")
                pause = 0.1
                # Every channel followed here now, those followed while connecting too.
                channels = notifier.on_link(self.name)
                self._pending = [("SSUBSCRIBE", channel.name) for channel in channels]
                self._transport, self._protocol = transport, protocol
                self._flush()
                reason = await lost
                raise RedisConnectionError(f"Redis closed the connection ({reason or 'EOF'})")
            except (RedisError, OSError) as exc:
                if pause == 0.1:
                    log.warning("Redis notifications lost (%s); polls re-read the log", exc)
            finally:
                self._transport = self._protocol = self._hiredis = None
                for channel in notifier.on_link(self.name):
                    channel.lost()
                if transport is not None:
                    transport.abort()
            self.resettle()
            await asyncio.sleep(pause)
            pause = min(2.0, pause * 2)
        self.closed = True

    async def close(self) -> None:
        """Stops listening and closes the connection."""
        self.closed = True
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
