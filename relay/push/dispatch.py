"""The push dispatcher: takes notices from the relay without waiting, asks the throttle what
goes now, pushes it to each of the player's browsers, drops the subscriptions found gone, and
tells what a window held back when it ends.

The relay calls it (`pusher(player, identity, notice)`) from the event loop; it only queues,
so a push service that is down or slow never slows a move. Behind the queue one task routes
notices through the throttle; each push to a browser runs as a task of its own, bounded by the
sender's `senders`. A window's end is a timer per player in this process; when another process
opened the window, that process's timer tells its notices (PushThrottle.flush).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Coroutine
from typing import Any, Protocol

from relay.push.messages import Notice
from relay.push.sender import Outcome, PushSender
from relay.push.subscription import Subscription
from relay.push.throttle import PushThrottle

__all__ = ["Pusher", "Subscriptions"]

log = logging.getLogger("relay.push")


class Subscriptions(Protocol):
    """Where the players' subscriptions are kept (a store's part, once wired)."""

    async def of(self, player: str) -> list[Subscription]:
        """Returns the player's subscriptions (none: [])."""

    async def drop(self, player: str, endpoint: str) -> None:
        """Forgets the player's subscription of that endpoint (its push service said gone)."""


class Pusher:
    """Pushes notices to players' browsers; call it to queue one."""

    def __init__(
        self,
        sender: PushSender,
        throttle: PushThrottle,
        subscriptions: Subscriptions,
        queue: int = 10_000,
    ) -> None:
        """queue: notices waiting in this process at most; past it they are dropped (counted
        in the sender's counts as `dropped`)."""
        self.sender = sender
        self.throttle = throttle
        self.subscriptions = subscriptions
        self.counts: Counter[str] = sender.counts
        self._notices: asyncio.Queue[tuple[str, str, Notice]] = asyncio.Queue(queue)
        self._flushes: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._router: asyncio.Task[None] | None = None

    def __call__(self, player: str, identity: str, notice: Notice) -> None:
        """Queues a notice for a player (identity: what makes it once, see PushThrottle);
        drops it, counted, when the queue is full."""
        try:
            self._notices.put_nowait((player, identity, notice))
        except asyncio.QueueFull:
            self.counts["dropped"] += 1

    async def start(self) -> None:
        """Starts routing (the sender must be started)."""
        self._router = asyncio.create_task(self._route_all())

    async def close(self) -> None:
        """Stops: notices queued, held or in flight are not pushed by this process."""
        for handle in self._flushes.values():
            handle.cancel()
        tasks = [*self._tasks, *([self._router] if self._router else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def idle(self) -> None:
        """Waits until every queued notice is routed and every push made (for tests)."""
        await self._notices.join()
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _route_all(self) -> None:
        while True:
            player, identity, notice = await self._notices.get()
            try:
                now = await self.throttle.admit(player, identity, notice)
                self._push(player, now)
                if not now and player not in self._flushes and self.throttle.every > 0:
                    # Held (or told before): the window's end tells what it holds.
                    left = await self.throttle.window_left(player)
                    if left > 0:
                        self._flush_later(player, left)
            except Exception as exc:  # a Redis failure: this notice is lost
                self.counts["dropped"] += 1
                log.warning("push of %s dropped: %s", notice.kind.value, exc)
            finally:
                self._notices.task_done()

    def _flush_later(self, player: str, delay: float) -> None:
        loop = asyncio.get_running_loop()
        self._flushes[player] = loop.call_later(delay + 0.05, self._flush_now, player)

    def _flush_now(self, player: str) -> None:
        del self._flushes[player]
        self._spawn(self._flush(player))

    async def _flush(self, player: str) -> None:
        try:
            self._push(player, await self.throttle.flush(player))
        except Exception as exc:
            log.warning("held pushes for a player not sent: %s", exc)

    def _push(self, player: str, notices: list[Notice]) -> None:
        for notice in notices:
            self._spawn(self._push_one(player, notice))

    async def _push_one(self, player: str, notice: Notice) -> None:
        try:
            browsers = await self.subscriptions.of(player)
            sent = await asyncio.gather(*(self.sender.send(sub, notice) for sub in browsers))
            for sub, result in zip(browsers, sent, strict=True):
                if result.outcome is Outcome.GONE:
                    await self.subscriptions.drop(player, sub.endpoint)
        except Exception as exc:  # the store failed: this push is lost
            self.counts["dropped"] += 1
            log.warning("push of %s not made: %s", notice.kind.value, exc)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
