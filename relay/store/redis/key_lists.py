"""Player keys in the Redis store: the list of matches each key seated, in its own slot.

A match's own scripts keep its seats' player key digests (p0/p1) and contacts (c0/c1) in its
hash (`relay.store.redis.keys`). The list of a key's matches is one sorted set per key, under the
key's own hash tag, written by a separate single-slot step after the seek's steps (or the
rematch's), so nothing ever touches two slots at once. A step lost in between heals: the
same seek repeated (with its own token) writes it again, every read of the list drops the
entries of matches gone or expired, and the reaper unlists each match it forgets."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from relay.core.model import Status
from relay.core.players import PlayerMatch, over_limit, too_many
from relay.core.verdicts import result_of
from relay.store.redis.keys import INFO_FIELDS, Layout, match_info
from relay.store.redis.link import Link

__all__ = ["RedisKeyLists"]

_FIELDS = [*INFO_FIELDS, "h0", "h1", "claim", "since"]
_STATUS, _SEATS, _CLAIM = _FIELDS.index("status"), _FIELDS.index("h0"), _FIELDS.index("claim")
"""Where a row of _FIELDS holds the match's status, its seats' token digests (two), and the
game-ending move's claim."""
"""The fields of a listed match's hash that a list reads: its summary (with its seats'
player key digests, which tell the key's seat), the seat tokens' digests, the game-ending
move's claim and since."""


class RedisKeyLists:
    """The Redis store's lists of matches per player key (seeks, rematches, the reaper and
    the Players part use them)."""

    def __init__(self, store: Link) -> None:
        self.store = store
        self.layout = Layout(store.prefix)

    async def _entries(self, digest: str) -> list[tuple[str, float, list[Any]]]:
        """Returns the key's listed matches, each with when it was listed and its hash's
        _FIELDS, dropping the entries of matches gone or expired."""
        store = self.store
        key = self.layout.player(digest)
        client = await store.client()
        listed = await store.guard(client.zrange(key, 0, -1, withscores=True))
        if not listed:
            return []
        rows = await asyncio.gather(
            *(
                store.guard(client.hmget(self.layout.match(member.decode()), _FIELDS))
                for member, _ in listed
            )
        )
        found, gone = [], []
        for (member, score), row in zip(listed, rows, strict=True):
            status = row[_STATUS]
            if status is None or status == b"expired":
                gone.append(member)
            else:
                found.append((member.decode(), float(score), row))
        if gone:
            await store.guard(client.zrem(key, *gone))
        return found

    async def check(self, digest: str, token: str) -> None:
        """Refuses a seek by a player key with LISTED matches not finished, unless a seat of
        one of them has the seek's token (by its digest): a repeated seek, answered the same."""
        found = await self._entries(digest)
        busy = over_limit(Status(row[_STATUS].decode()) for _, _, row in found)
        if busy and not any(token.encode() in row[_SEATS : _SEATS + 2] for _, _, row in found):
            raise too_many()

    async def add(self, digest: str, match: str, now: float) -> None:
        """Lists a match under a player key (a repeat keeps the first time)."""
        client = await self.store.client()
        await self.store.guard(client.zadd(self.layout.player(digest), {match: now}, nx=True))

    async def forget(self, match: str, digests: list[str]) -> None:
        """Unlists a match the store forgot from its seats' player keys ('' for none)."""
        client = await self.store.client()
        for digest in digests:
            if digest:
                await self.store.guard(client.zrem(self.layout.player(digest), match))

    async def matches(self, digest: str, now: float) -> list[PlayerMatch]:
        """Returns the matches the key (by its digest) seated that the store still holds."""
        store = self.store
        listed = []
        for match, opened, row in await self._entries(digest):
            info = match_info(match, row[: len(INFO_FIELDS)])
            if info is None:
                continue
            since = row[-1]
            seat = 0 if info.keys[0] == digest else 1
            result = None
            if info.status == Status.FINISHED:
                client = await store.client()
                log = f"{self.layout.tagged(match)}e:{match}"
                last = await store.guard(client.lindex(log, -1))
                if last is not None:
                    ended = orjson.loads(last)
                    claim = row[_CLAIM]
                    result = result_of(ended, None if claim is None else claim.decode())
            change = None if info.ratings is None else info.ratings[seat]
            listed.append(PlayerMatch(info, seat, opened, float(since or 0), result, change))
        return listed
