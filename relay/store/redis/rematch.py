"""Rematches in the Redis store: their scripts and the calls that run them, kept apart.

Each script touches the keys of ONE match (all in the match's shard, see
`relay.store.redis.keys`), never the old and the new match at once:

- ``P{T}x:I``   hash beside a finished match I: ``v`` (version), ``state``, ``o0``/``o1``
                ('1' when that seat offers), ``by`` (the seat that declined), ``at`` (when the
                standing offer was made), ``next`` (the new match once both offered); it
                expires with the match (keep)
- ``P{T}wx:I``  sharded channel: 'x' at each change of the rematch

Accepting runs REMATCH on the old match (recording the decision and the new match's id,
drawn in Python), then REMATCH_START on the new match's own keys, which is idempotent: any
later read of an accepted rematch runs it again, so a relay that stopped between the two
calls leaves nothing half done."""

from __future__ import annotations

import asyncio
from typing import Any

from relay.core.errors import RelayError
from relay.core.model import hash_token
from relay.core.rematch import NONE, Rematch, RematchOp, RematchState, lapse_at
from relay.store.redis import keys as redis_keys
from relay.store.redis.connection import Connection
from relay.store.redis.key_lists import RedisKeyLists
from relay.store.redis.replies import Tell, turn_given
from relay.store.redis.waits import wait_notice

__all__ = ["RedisRematches"]


class RedisRematches:
    """The Rematches part of the Redis store: scripts through `store`, a new match listed
    under its players' keys, its first mover's turn told."""

    def __init__(self, store: Connection, keys: RedisKeyLists, tell: Tell) -> None:
        self.store = store
        self.keys = keys
        self.tell = tell
        self.layout = redis_keys.Layout(store.prefix)

    def channel(self, match: str) -> str:
        """Returns the channel on which changes to the match's rematch are announced."""
        return f"{self.layout.tagged(match)}wx:{match}"

    async def step(self, match: str, token: str | None, op: RematchOp, now: float) -> Rematch:
        """Reads a match's rematch, or has the token's seat offer or decline one."""
        if op != "read" and token is None:
            raise RelayError("auth/required")
        return await self._run(match, "" if token is None else hash_token(token), op, now)

    async def wait(self, match: str, after: int, timeout: float, now: float) -> Rematch:
        """Returns the rematch once its version is above after, or as it is after timeout."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        seen: list[Rematch] = []

        async def ready() -> bool:
            at = now + loop.time() - start
            current = await self.step(match, None, "read", at)
            seen[:] = [current]
            due = lapse_at(current, self.store.settings.grace)
            return current.version > after or (due is not None and due < at)

        left = timeout
        while True:
            await wait_notice(self.store, self.channel(match), ready, left)
            current = seen[-1]
            due = lapse_at(current, self.store.settings.grace)
            left = timeout - (loop.time() - start)
            if current.version > after or due is None or left <= 0:
                return current
            # An offer stands that lapses before the wait is over: wait until then.
            left = min(left, due - (now + loop.time() - start) + 0.05)
            if left <= 0:
                return await self.step(match, None, "read", now + loop.time() - start)

    async def _run(self, match: str, digest: str, op: RematchOp, now: float) -> Rematch:
        """Runs REMATCH on the match's keys, then, when accepted, REMATCH_START on the new
        match's keys."""
        store = self.store
        tagged = self.layout.tagged(match)
        answer = await store.call(
            "REMATCH",
            [f"{tagged}m:{match}", f"{tagged}x:{match}"],
            [
                repr(float(now)),
                repr(store.settings.grace),
                repr(store.settings.keep),
                digest,
                op,
                redis_keys.new_id(),
                self.channel(match),
                match,
            ],
        )
        found = _rematch(answer)
        if found.match is not None:
            (nxt, first, game, version, h0, h1, control, json, p0, p1, c0, c1, n0, n1, casual) = (
                answer[7:]
            )
            new = found.match
            at = self.layout.tagged(new)
            started = await store.call(
                "REMATCH_START",
                [f"{at}m:{new}", f"{at}e:{new}", f"{at}counts", f"{at}deadlines"],
                [repr(float(now)), repr(store.settings.grace), game, version, h0, h1, first,
                 self.layout.channel(new, 1), nxt, control, json, p0, p1, c0, c1, n0, n1,
                 casual],
            )  # fmt: skip
            if int(started[1]):
                # The new match is listed under its players' keys in a step of its own.
                for player in (p0, p1):
                    if player:
                        await self.keys.add(_text(player), new, now)
                self.tell(new, turn_given(started[2:]), 1)
        return found


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _rematch(answer: list[Any]) -> Rematch:
    """Reads REMATCH's answer."""
    _, version, state, o0, o1, by, at, nxt, first = (_text(v) for v in answer[:9])
    if int(version) == 0:
        return NONE
    known: RematchState = state  # type: ignore[assignment]
    return Rematch(
        int(version),
        known,
        (o0 == "1", o1 == "1"),
        by=int(by) if by else None,
        match=nxt or None,
        offered_at=float(at) if at else None,
        first=int(first) if first else None,
    )
