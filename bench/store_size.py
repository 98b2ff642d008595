"""`python -m bench.store_size`: what rated play leaves in each store, per kind of key, and
a site's store size after a year at a given rate (docs/hosting.md#what-a-store-holds).

Plays --matches rated matches of 12 moves between fresh pairs of named player keys (the
most a store ever keeps per match and per rated game), then reads Redis's own MEMORY USAGE
of every key it wrote, grouped by kind, and the memory store's traced allocations."""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
import tracemalloc
from collections import defaultdict
from typing import Any

from relay import Action, MemoryStore, Store, StoreSettings
from relay.core.model import hash_token
from relay.core.rated import RatingRules
from relay.core.standings import HISTORY
from relay.core.text_policy import skeletons
from relay.store.redis.store import RedisStore

__all__ = ["main", "play"]

SETTINGS = StoreSettings(ratings=RatingRules(unrefereed=True))


async def play(store: Store, matches: int, now: float) -> None:
    """Plays `matches` rated matches of 12 moves between fresh pairs of named keys."""
    for n in range(matches):
        keys = (secrets.token_urlsafe(32), secrets.token_urlsafe(32))
        room = secrets.token_hex(6)
        one = await store.matches.seek("size", "", room, now, player=keys[0], name=f"Ann{n}")
        two = await store.matches.seek("size", "", room, now, player=keys[1], name=f"Bob{n}")
        for seat, key in enumerate(keys):
            await store.players.claim_name(skeletons(("Ann", "Bob")[seat] + str(n)), key, now)
        # Seat 0 polls again, as a live client does: that starts the paired match.
        _, events = await store.matches.poll(one.match, one.token, 0, now)
        first = json.loads(events[0])["first"]
        movers = (one, two) if one.seat == first else (two, one)
        for after in range(1, 13):
            mover = movers[(after - 1) % 2]
            await store.matches.act(
                one.match, mover.token, Action("move", after, f"{after:02d}"), now
            )
        await store.matches.act(one.match, one.token, Action("resign"), now)
    await store.matches.reap(now + 2)


def _kind(key: str) -> str:
    """Returns a Redis key's kind: its hash tag's kind, then what follows the tag, less the
    ids ('{g}r': a rating, '{s}m': a match's hash)."""
    tag, _, tail = key.removeprefix("{").partition("}")
    kind = tag.split(":", 1)[0].rstrip("0123456789")
    return f"{{{kind}}}" + tail.split(":", 1)[0]


async def redis_sizes(url: str, matches: int) -> dict[str, Any]:
    """Returns the bytes of each kind of key rated play leaves in Redis, per match."""
    prefix = f"size{secrets.token_hex(3)}:"
    store = RedisStore.from_url(url, SETTINGS, prefix=prefix)
    try:
        await play(store, matches, time.time())
        client = await store.link.client()
        sizes: dict[str, list[int]] = defaultdict(list)
        async for key in client.scan_iter(match=f"{prefix}*", count=1000):
            usage = await client.memory_usage(key)
            sizes[_kind(key.decode().removeprefix(prefix))].append(int(usage or 0))
    finally:
        await store.close()
    return {
        kind: {"keys": len(found), "bytes_per_match": round(sum(found) / matches)}
        for kind, found in sorted(sizes.items())
    }


async def memory_size(matches: int) -> int:
    """Returns the memory store's traced bytes per rated match."""
    store = MemoryStore(SETTINGS)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    await play(store, matches, time.time())
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return round(grown / matches)


async def full_history(url: str) -> int:
    """Returns the bytes of one key's rating and history in a game once its history is full
    (HISTORY rated games)."""
    prefix = f"size{secrets.token_hex(3)}:"
    lax = RatingRules(unrefereed=True, pair_daily=1000)
    store = RedisStore.from_url(url, StoreSettings(ratings=lax), prefix=prefix)
    try:
        main_key, now = secrets.token_urlsafe(32), time.time()
        for _ in range(HISTORY):
            room = secrets.token_hex(6)
            one = await store.matches.seek("size", "", room, now, player=secrets.token_urlsafe(32))
            await store.matches.seek("size", "", room, now, player=main_key)
            await store.matches.poll(one.match, one.token, 0, now)  # starts it, as seat 0
            await store.matches.act(one.match, one.token, Action("resign"), now)
        await store.matches.reap(now + 2)
        client = await store.link.client()
        digest = hash_token(main_key)
        total = 0
        for kind in ("r", "h"):
            total += int(await client.memory_usage(f"{prefix}{{g:size}}{kind}:{digest}") or 0)
        return total
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> None:
    """Measures both stores (Redis at --redis) and prints the figures as JSON."""
    p = argparse.ArgumentParser(prog="python -m bench.store_size", description=__doc__)
    p.add_argument("--matches", type=int, default=500, help="rated matches played")
    p.add_argument("--redis", required=True, help="a Redis URL to write under a fresh prefix")
    p.add_argument("--per-day", type=int, default=10_000, help="rated matches a day, for a year")
    a = p.parse_args(argv)
    redis = asyncio.run(redis_sizes(a.redis, a.matches))
    per_match = sum(kind["bytes_per_match"] for kind in redis.values())
    history = asyncio.run(full_history(a.redis))
    print(
        json.dumps(
            {
                "matches": a.matches,
                "redis": redis,
                "redis_bytes_per_rated_match": per_match,
                "memory_bytes_per_rated_match": asyncio.run(memory_size(a.matches)),
                "redis_bytes_per_key_and_game_with_a_full_history": history,
                "per_day": a.per_day,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
