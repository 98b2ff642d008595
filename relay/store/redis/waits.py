"""Waiting on the Redis store's sharded pub/sub channels: a waiter registered on a channel,
woken by the next notice on it or by its timer, and a wait for a condition that each notice
(or every `recheck` seconds) asks again."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator

from relay.store.redis.connection import Connection
from relay.store.redis.notify import Channel, Waiter

__all__ = ["registered", "sleep", "wait_notice"]


async def wait_notice(
    link: Connection, name: str, ready: Callable[[], Awaitable[bool]], timeout: float
) -> None:
    """Returns once ready() answers true, asking again at each notice on the channel called
    name (and every `recheck` seconds), or after timeout."""
    notes = await link.notes()
    channel = notes.follow(name)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with registered(channel, loop) as waiter:
                # Asked after registering: a change after this read finds the waiter.
                if await ready() or link.closing:
                    return
                left = deadline - loop.time()
                if left <= 0:
                    return
                await sleep(waiter, min(left, link.recheck))
    finally:
        notes.leave(channel)


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
