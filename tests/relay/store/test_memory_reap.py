"""The memory store's reap, which looks at every match once a second, lets the event loop
turn every REAP_SLICE matches: a box of tens of thousands of matches answers moves while it
runs rather than after."""

from __future__ import annotations

import asyncio
import time

from relay import MemoryStore, Status, StoreSettings
from relay.store.memory.reaper import REAP_SLICE


async def test_a_reap_over_many_matches_lets_the_event_loop_turn() -> None:
    store = MemoryStore(StoreSettings(grace=30.0, max_waiting=10 * REAP_SLICE))
    now = time.time()
    for index in range(3 * REAP_SLICE):
        await store.matches.seek("reaped", "1", f"room-{index}", now)
    turns = 0
    reaping = True

    async def count_turns() -> None:
        nonlocal turns
        while reaping:
            turns += 1
            await asyncio.sleep(0)

    counter = asyncio.create_task(count_turns())
    await asyncio.sleep(0)
    started = turns
    await store.matches.reap(now + 1.0)
    reaping = False
    await counter
    # The loop turned while the reap went over 3,000 matches: moves are not held up meanwhile.
    assert turns - started >= 2, (started, turns)
    # And nothing was reaped that should not be: the seeks are fresh.
    assert (await store.matches.counts())[Status.WAITING] == 3 * REAP_SLICE
