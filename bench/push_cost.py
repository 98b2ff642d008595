"""What Web Push adds to a move's CPU: the write of a move in a timed match whose seats have
player keys, with push off and on (its sinks set: a TurnNotice made and queued for each turn,
nothing awaited). On the memory store, the process's CPU per move; on Redis (`--redis URL`, a
Redis of its own: its statistics are reset), Redis's CPU per call of the move's script (FCALL,
from INFO commandstats). Run: python -m bench.push_cost [--redis redis://127.0.0.1:6390/0]."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from relay import Action, MemoryStore
from relay.core.clock import TimeControl
from relay.core.model import StoreSettings, hash_token
from relay.push.triggers import PushTriggers
from relay.store.redis.store import RedisStore

__all__ = ["measure", "measure_redis"]

MOVES = 9_000
"""Moves a round makes: one match's, within its 10,000 events."""
ROUNDS = 9
"""Rounds of each, alternating; the median is told."""


async def _match(store: Any) -> tuple[str, list[str]]:
    """Returns a new timed match's id and its seats' tokens, the first mover's first."""
    control = TimeControl("fischer", 3600, 0)
    a = await store.matches.seek("bench", "1", None, time.time(), None, control, "A" * 40)
    b = await store.matches.seek("bench", "1", None, time.time(), None, control, "B" * 40)
    await store.matches.poll(a.match, a.token, 0, time.time())
    _, events = await store.matches.poll(a.match, None, 0, time.time())
    first = 0 if b'"first":0' in events[0] else 1
    tokens = [a.token, b.token]
    return a.match, [tokens[first], tokens[1 - first]]


async def _round(push: bool) -> float:
    """Returns the CPU microseconds of one move, over MOVES moves."""
    store = MemoryStore()
    immediate = store.immediate
    assert immediate is not None
    if push:
        triggers = PushTriggers(store, lambda *_: None, 10.0, queue=MOVES + 10)
        store.hooks.turns = triggers.turn
        store.hooks.ended = triggers.ended
        store.hooks.timed = True
    match, tokens = await _match(store)
    digests = [hash_token(token) for token in tokens]
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


async def _redis_round(url: str, push: bool) -> float:
    """Returns Redis's CPU microseconds per call of a move's script, over MOVES moves."""
    store = RedisStore.from_url(url, StoreSettings(max_events=MOVES + 10))
    store.hooks.timed = push  # what Web Push sets: the script then answers timed turns too
    if push:
        store.hooks.turns = PushTriggers(store, lambda *_: None, 10.0, queue=MOVES + 10).turn
    try:
        match, tokens = await _match(store)
        client = await store.link.client()
        await client.config_resetstat()
        for seq in range(1, MOVES + 1):
            action = Action("move", seq, "m")
            await store.matches.act(match, tokens[(seq - 1) % 2], action, time.time())
        stats = await client.info("commandstats")
        return float(stats["cmdstat_fcall"]["usec_per_call"])
    finally:
        await store.close()


def measure_redis(url: str, rounds: int = 3) -> dict[str, float]:
    """Returns the median Redis microseconds of a move's script with push off and on."""
    found: dict[str, list[float]] = {"off": [], "on": []}
    for _ in range(rounds):
        for name in ("off", "on"):
            found[name].append(asyncio.run(_redis_round(url, name == "on")))
    return {name: statistics.median(values) for name, values in found.items()}


def main() -> None:
    """Prints the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.push_cost", description=__doc__)
    parser.add_argument("--redis", metavar="URL", help="also measure on this Redis")
    args = parser.parse_args()
    off, on = measure().values()
    print(f"a move's CPU on the memory store: push off {off:.2f} us, on {on:.2f} us")
    if args.redis:
        off, on = measure_redis(args.redis).values()
        print(f"Redis's CPU per move script (FCALL): push off {off:.2f} us, on {on:.2f} us")


if __name__ == "__main__":
    main()
