"""What a match's log costs in memory: about its bytes, not a buffer per event."""

from __future__ import annotations

import time
import tracemalloc

from relay import Action, MemoryStore, StoreSettings
from tests.relay.store.calls import start


async def test_a_logged_move_costs_hundreds_of_bytes_not_kilobytes() -> None:
    store = MemoryStore(StoreSettings(max_events=5000))
    a = await store.matches.seek("memory", "", "log", time.time())
    b = await store.matches.seek("memory", "", "log", time.time())
    await start(store, a)
    _, started = await store.matches.poll(a.match, None, 0, time.time())
    first = int(started[0].split(b'"first":')[1][0:1])
    tokens = {a.seat: a.token, b.seat: b.token}
    moves = 2000
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for after in range(1, moves + 1):
            seat = (first + after - 1) % 2
            move = Action("move", after, f"move {after:05d}")
            assert await store.matches.act(a.match, tokens[seat], move, time.time()) == after + 1
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # An event of ~70 bytes, what the store remembers of its write, and the move's text:
    # a few hundred bytes. (orjson.dumps' bytes would keep 4 KB each.)
    assert grown / moves < 600, f"{grown / moves:.0f} bytes per logged move"
