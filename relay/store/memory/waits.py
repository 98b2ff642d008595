"""Waiting on a match of the memory store: a held wait answered by the match's next event (or
its table's next change) or at its timeout, through a callback (watch) or awaited (wait); the
twin of the Redis store's waits on its match channels (relay.store.redis.notify)."""

from __future__ import annotations

import asyncio
import math

from relay.core.errors import RelayError
from relay.core.model import Event, behind
from relay.store.base import Waited, Wake
from relay.store.memory.match import TICK, Held, Match
from relay.store.memory.registry import Registry

__all__ = ["wait", "watch"]


def watch(
    reg: Registry, match: str, after: int, timeout: float, wake: Wake, version: int | None
) -> Held | None:
    """Calls wake with the events above after once there are any, or with [] after timeout:
    at once (returning None) when there are some already, else later, from whatever appends
    the next event (returning the wait, to cancel if need be). With a table version, a table
    above it ends the wait too (with the events then, maybe [])."""
    state = reg.get(match)
    if after > len(state.events):
        raise behind(after, len(state.events))
    newer = version is not None and state.table.version > version
    if len(state.events) > after or reg.closing or timeout <= 0 or newer:
        wake(state.events[after:], state.table.version)
        return None
    return _hold(reg, state, after, timeout, wake, version is not None)


async def wait(
    reg: Registry, match: str, after: int, timeout: float, version: int | None
) -> Waited:
    """Matches.wait: watch() awaited."""
    future: asyncio.Future[tuple[list[Event] | None, int]] = reg.running_loop().create_future()

    def wake(events: list[Event] | None, table: int) -> None:
        if not future.done():
            future.set_result((events, table))

    held = watch(reg, match, after, timeout, wake, version)
    try:
        events, table = await future
    finally:
        if held is not None:
            held.cancel()
    if events is None:
        raise RelayError("match/expired")
    return Waited(events, not events and version is not None and table > version)


def _hold(
    reg: Registry, state: Match, after: int, timeout: float, wake: Wake, tables: bool
) -> Held:
    """Registers a wait on the match until its next event (or its table's next change), or
    its tick after timeout."""
    loop = reg.running_loop()
    tick = math.ceil((loop.time() + timeout) / TICK)
    ticks = reg.ticks
    due = ticks.get(tick)
    if due is None:
        due = ticks[tick] = set()
        loop.call_at(tick * TICK, _time_out, ticks, tick)
    held = Held(state, after, wake, due, tables)
    due.add(held)
    state.waiters.append(held)
    return held


def _time_out(ticks: dict[int, set[Held]], tick: int) -> None:
    """Answers every wait still held whose time is up at this tick."""
    for held in list(ticks.pop(tick, ())):
        held.fire()
