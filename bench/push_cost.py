"""What Web Push adds to a move's CPU on the memory store: the write of a move in a timed match
whose seats have player keys, with no sinks (push off) and with Web Push's sinks (push on: a
TurnNotice made and queued for each turn, nothing awaited). Run: python -m bench.push_cost."""

from __future__ import annotations

import asyncio
import statistics
import time

from relay import Action, MemoryStore
from relay.core.clock import TimeControl
from relay.core.model import hash_token
from relay.push.triggers import PushTriggers

__all__ = ["measure"]

MOVES = 9_000
"""Moves a round makes: one match's, within its 10,000 events."""
ROUNDS = 9
"""Rounds of each, alternating; the median is told."""


async def _match(store: MemoryStore) -> tuple[str, list[str]]:
    control = TimeControl("fischer", 3600, 0)
    a = await store.matches.seek("bench", "1", None, time.time(), None, control, "A" * 40)
    b = await store.matches.seek("bench", "1", None, time.time(), None, control, "B" * 40)
    await store.matches.poll(a.match, a.token, 0, time.time())
    _, events = await store.matches.poll(a.match, None, 0, time.time())
    first = 0 if b'"first":0' in events[0] else 1
    tokens = [a.token, b.token]
    return a.match, [hash_token(tokens[first]), hash_token(tokens[1 - first])]


async def _round(push: bool) -> float:
    """Returns the CPU microseconds of one move, over MOVES moves."""
    store = MemoryStore()
    immediate = store.immediate
    assert immediate is not None
    if push:
        triggers = PushTriggers(store, lambda *_: None, 10.0, queue=MOVES + 10)
        store.hooks.turns = triggers.turn
        store.hooks.ended = triggers.ended
    match, digests = await _match(store)
    start = time.process_time()
    for seq in range(1, MOVES + 1):
        immediate.act_hashed(match, digests[(seq - 1) % 2], Action("move", seq, "m"), time.time())
    return (time.process_time() - start) / MOVES * 1e6


def measure() -> dict[str, float]:
    """Returns the median CPU microseconds of a move with push off and on."""
    found: dict[str, list[float]] = {"off": [], "on": []}
    for _ in range(ROUNDS):
        for name in ("off", "on"):
            found[name].append(asyncio.run(_round(name == "on")))
    return {name: statistics.median(values) for name, values in found.items()}


if __name__ == "__main__":
    figures = measure()
    off, on = figures["off"], figures["on"]
    print(f"a move's CPU on the memory store: push off {off:.2f} us, on {on:.2f} us")
